// NormLab core: the depth lab's sequence tasks (see sequence_tasks.hpp).
//
// [SECTION] Names and validation
// [SECTION] UTF-8
// [SECTION] Vocabulary
// [SECTION] Tasks: construction
// [SECTION] Tasks: batches
#include "normlab/models/sequence_tasks.hpp"

#include "normlab/base/text.hpp"

#include "normlab/models/datasets.hpp"
#include "normlab/base/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace normlab {

using Eigen::Index;

// [SECTION] Names and validation ------------------------------------------------------------

std::string_view to_string(TaskKind kind) {
    switch (kind) {
        case TaskKind::Sort: return "sort";
        case TaskKind::Copy: return "copy";
        case TaskKind::Text: return "text";
    }
    return "unknown";
}

std::optional<TaskKind> parse_task(std::string_view name) {
    for (TaskKind k : {TaskKind::Sort, TaskKind::Copy, TaskKind::Text})
        if (to_string(k) == name) return k;
    return std::nullopt;
}

std::string_view to_string(TextUnits units) { return units == TextUnits::Bytes ? "bytes" : "chars"; }

std::optional<TextUnits> parse_text_units(std::string_view name) {
    if (name == "chars") return TextUnits::CodePoints;
    if (name == "bytes") return TextUnits::Bytes;
    return std::nullopt;
}

std::string validate(const TaskSpec& s) {
    if (s.kind != TaskKind::Text) {
        if (s.length < 1 || s.length > kMaxTaskLength)
            return "length " + std::to_string(s.length) + " is out of range [1, " + std::to_string(kMaxTaskLength) + "]";
        if (s.digits < 2 || s.digits > 10) return "digits " + std::to_string(s.digits) + " is out of range [2, 10]";
        return {};
    }
    if (s.context < kMinTextContext || s.context > kMaxTextContext)
        return "context " + std::to_string(s.context) + " is out of range [" + std::to_string(kMinTextContext) + ", " +
               std::to_string(kMaxTextContext) + "]";
    if (!(s.validation_fraction > 0.0 && s.validation_fraction <= 0.5))
        return "the validation fraction must lie in (0, 0.5]";
    return {};
}

std::string default_text_path() { return shipped_assets_dir() + "/lighthouse.txt"; }

// [SECTION] UTF-8 ---------------------------------------------------------------------------

std::vector<char32_t> decode_utf8(std::string_view text, std::string_view source) {
    std::vector<char32_t> out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t at = i;
        char32_t cp = 0;
        if (!next_utf8(text, i, cp)) throw InputError(std::string(source) + ": invalid UTF-8 at byte " + std::to_string(at));
        out.push_back(cp);
    }
    return out;
}

// [SECTION] Vocabulary ----------------------------------------------------------------------

std::optional<int> Vocabulary::id(char32_t symbol) const {
    const auto it = std::lower_bound(symbols.begin(), symbols.end(), symbol);
    if (it == symbols.end() || *it != symbol) return std::nullopt;
    return static_cast<int>(it - symbols.begin());
}

std::string Vocabulary::decode(const std::vector<int>& ids) const {
    std::string out;
    for (int i : ids) {
        const char32_t s = symbols.at(static_cast<std::size_t>(i));
        if (units == TextUnits::Bytes) out += static_cast<char>(static_cast<unsigned char>(s));
        else out += encode_utf8(s);
    }
    return out;
}

std::vector<int> Vocabulary::encode(std::string_view text, std::string_view what) const {
    std::vector<char32_t> raw;
    if (units == TextUnits::Bytes) {
        for (char c : text) raw.push_back(static_cast<unsigned char>(c));
    } else {
        raw = decode_utf8(text, what);
    }
    std::vector<int> ids;
    ids.reserve(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) {
        const std::optional<int> i = id(raw[k]);
        if (!i) {
            Vocabulary one;
            one.units = units;
            one.symbols = {raw[k]};
            throw InputError(std::string(what) + " has " + one.display(0) + " at position " + std::to_string(k) +
                             ", which is not in the vocabulary");
        }
        ids.push_back(*i);
    }
    return ids;
}

std::string Vocabulary::display(int i) const {
    const char32_t s = symbols.at(static_cast<std::size_t>(i));
    if (s == U'\n') return "\"\\n\"";
    if (s == U'\t') return "\"\\t\"";
    char buf[16];
    const bool printable = units == TextUnits::Bytes ? (s >= 0x20 && s < 0x7F) : (s >= 0x20 && s != 0x7F && !(s >= 0x80 && s < 0xA0));
    if (!printable) {
        std::snprintf(buf, sizeof buf, units == TextUnits::Bytes ? "0x%02X" : "U+%04X", static_cast<unsigned>(s));
        return buf;
    }
    return "\"" + encode_utf8(s) + "\"";
}

// [SECTION] Tasks: construction -------------------------------------------------------------

SequenceTask::SequenceTask(const TaskSpec& spec) : spec_(spec) {
    if (const std::string problem = validate(spec); !problem.empty()) throw std::invalid_argument(problem);
    vocab_.units = TextUnits::CodePoints;
    if (synthetic()) {
        // "0", ..., "D−1", then "|" (code points increase, so ids follow)
        for (int k = 0; k < spec.digits; ++k) vocab_.symbols.push_back(static_cast<char32_t>(U'0' + k));
        vocab_.symbols.push_back(U'|');
        source_ = std::string(to_string(spec.kind));
        return;
    }
    std::string text = spec.text;
    source_ = "(text)";
    if (text.empty()) {
        source_ = spec.text_path.empty() ? default_text_path() : spec.text_path;
        text = read_text_file(source_);  // InputError "cannot open PATH: REASON"
    }
    std::vector<char32_t> raw;
    vocab_.units = spec.units;
    if (spec.units == TextUnits::Bytes) {
        for (char c : text) raw.push_back(static_cast<unsigned char>(c));
    } else {
        raw = decode_utf8(text, source_);
    }
    const std::set<char32_t> distinct(raw.begin(), raw.end());
    vocab_.symbols.assign(distinct.begin(), distinct.end());
    if (vocab_.size() < 2)
        throw InputError(source_ + " has " + std::to_string(vocab_.size()) +
                         " distinct symbols; a language model needs at least 2");
    // Held-out tail: max(T + 1, ⌈N·fraction⌉) symbols; both parts need a window of T + 1.
    const std::size_t N = raw.size(), window = static_cast<std::size_t>(spec.context) + 1;
    const auto held = std::max(window, static_cast<std::size_t>(std::ceil(static_cast<double>(N) * spec.validation_fraction)));
    if (N < window + held)
        throw InputError(source_ + " has " + std::to_string(N) + " " + (spec.units == TextUnits::Bytes ? "bytes" : "characters") +
                         "; context " + std::to_string(spec.context) + " needs at least " +
                         std::to_string(window + held) + " (a window of " + std::to_string(window) +
                         " to train on and " + std::to_string(held) + " held out)");
    std::vector<int> ids(N);
    for (std::size_t k = 0; k < N; ++k) ids[k] = *vocab_.id(raw[k]);
    train_.assign(ids.begin(), ids.end() - static_cast<std::ptrdiff_t>(held));
    validation_.assign(ids.end() - static_cast<std::ptrdiff_t>(held), ids.end());
}

int SequenceTask::context() const { return synthetic() ? 2 * spec_.length : spec_.context; }

int SequenceTask::separator() const { return spec_.digits; }

std::string SequenceTask::source() const { return source_; }

std::vector<int> SequenceTask::answer(const std::vector<int>& digits) const {
    std::vector<int> a = digits;
    if (spec_.kind == TaskKind::Sort) std::sort(a.begin(), a.end());
    return a;
}

// [SECTION] Tasks: batches ------------------------------------------------------------------

void SequenceTask::fill_problem(Rng& rng, Index row, SequenceBatch& out) const {
    // sequence s = x₁ … x_n | y₁ … y_n (2n + 1 ids); inputs s[0, 2n), targets s[1, 2n] scored on y only
    const int n = spec_.length;
    std::vector<int> x(static_cast<std::size_t>(n));
    for (int& v : x) v = static_cast<int>(rng.below(static_cast<std::uint64_t>(spec_.digits)));
    const std::vector<int> y = answer(x);
    for (int t = 0; t < n; ++t) {
        out.inputs(row, t) = x[static_cast<std::size_t>(t)];
        out.targets(row, t) = -1;
    }
    out.inputs(row, n) = separator();
    for (int k = 0; k < n; ++k) {
        // position n − 1 + k + 1 = n + k reads y₁ … y_k and predicts y_{k+1}
        if (k + 1 < n) out.inputs(row, n + 1 + k) = y[static_cast<std::size_t>(k)];
        out.targets(row, n + k) = y[static_cast<std::size_t>(k)];
    }
}

void SequenceTask::fill_window(std::size_t start, Index row, const std::vector<int>& ids, SequenceBatch& out) const {
    for (Index t = 0; t < spec_.context; ++t) {
        out.inputs(row, t) = ids[start + static_cast<std::size_t>(t)];
        out.targets(row, t) = ids[start + static_cast<std::size_t>(t) + 1];
    }
}

void SequenceTask::sample(Rng& rng, Index batch, SequenceBatch& out) const {
    const Index T = context();
    out.inputs.resize(batch, T);
    out.targets.resize(batch, T);
    for (Index b = 0; b < batch; ++b) {
        if (synthetic()) {
            fill_problem(rng, b, out);
        } else {
            // offsets 0 … |train| − T − 1, uniform
            const std::size_t starts = train_.size() - static_cast<std::size_t>(T);
            fill_window(static_cast<std::size_t>(rng.below(starts)), b, train_, out);
        }
    }
}

SequenceBatch SequenceTask::evaluation_set(Index cases, std::uint64_t seed) const {
    SequenceBatch out;
    const Index T = context();
    if (synthetic()) {
        Rng rng(seed);
        out.inputs.resize(cases, T);
        out.targets.resize(cases, T);
        for (Index b = 0; b < cases; ++b) fill_problem(rng, b, out);
        return out;
    }
    // windows at offsets round(k · (S − 1) / (count − 1)), k = 0 … count − 1, S = |held out| − T
    const auto starts = static_cast<Index>(validation_.size()) - T;
    const Index count = std::max<Index>(1, std::min(cases, starts));
    out.inputs.resize(count, T);
    out.targets.resize(count, T);
    for (Index k = 0; k < count; ++k) {
        const Index start = count == 1 ? 0 : (k * (starts - 1) + (count - 1) / 2) / (count - 1);
        fill_window(static_cast<std::size_t>(start), k, validation_, out);
    }
    return out;
}

}  // namespace normlab
