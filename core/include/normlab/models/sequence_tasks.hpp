// NormLab core: the depth lab's sequence tasks: sorting or copying digits, and character-level
// language modelling on a text.
//
// [SECTION] Task kinds  — sort, copy, text; names and parsing
// [SECTION] UTF-8       — strict decoding with the byte offset of the first error
// [SECTION] Vocabulary  — symbols (code points or bytes) ↔ token ids
// [SECTION] Tasks       — seeded training batches and a fixed evaluation set
//
// Synthetic tasks (n digits in 0..D−1, separator "|"; token ids: digit k → k, "|" → D):
//   sort:  "31415|11345"   copy: "31415|31415"   (n = 5 here; 2n + 1 symbols per problem)
// The model reads the first 2n symbols and is scored on the n answer positions only (the
// digits before "|" are random: nothing there can be predicted); accuracy is the fraction of
// answer digits predicted right.
// Text: the file's bytes decoded as UTF-8 into code points (or taken as raw bytes); the
// vocabulary is the sorted set of symbols that occur. The first 90% trains (windows of T + 1
// symbols at seeded random offsets; every position is scored), the last 10% is held out.
#pragma once

#include "normlab/base/random.hpp"
#include "normlab/models/transformer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Task kinds ----------------------------------------------------------------------

enum class TaskKind { Sort, Copy, Text };
enum class TextUnits { CodePoints, Bytes };

std::string_view to_string(TaskKind kind);     // "sort" | "copy" | "text"
std::optional<TaskKind> parse_task(std::string_view name);
std::string_view to_string(TextUnits units);   // "chars" | "bytes"
std::optional<TextUnits> parse_text_units(std::string_view name);

struct TaskSpec {
    TaskKind kind = TaskKind::Sort;
    int length = 6;                   // sort, copy: digits per problem n, 1..32 (T = 2n)
    int digits = 10;                  // sort, copy: digit values 0..D−1, D in 2..10
    std::string text;                 // text: the text itself (UTF-8); when empty, text_path is read
    std::string text_path;            // text: a file; empty: the bundled default_text_path()
    TextUnits units = TextUnits::CodePoints;
    int context = 32;                 // text: positions per window T, 2..256
    double validation_fraction = 0.1; // text: the held-out tail, in (0, 0.5]
};

inline constexpr int kMaxTaskLength = 32;
inline constexpr int kMinTextContext = 2, kMaxTextContext = 256;

// Empty when usable (the text itself is checked when the task is built), else one sentence.
std::string validate(const TaskSpec& spec);

// The bundled text: $NORMLAB_ASSETS_DIR/lighthouse.txt when that variable is set, else the
// source tree's assets/lighthouse.txt (self-written prose, about 4 KB, public domain).
std::string default_text_path();

// [SECTION] UTF-8 ---------------------------------------------------------------------------

// Strict UTF-8 → code points (no overlong forms, surrogates or values above U+10FFFF). Throws
// InputError "SOURCE: invalid UTF-8 at byte N" (N counts from 0).
std::vector<char32_t> decode_utf8(std::string_view text, std::string_view source);

// [SECTION] Vocabulary ----------------------------------------------------------------------

struct Vocabulary {
    TextUnits units = TextUnits::CodePoints;
    std::vector<char32_t> symbols;   // id → code point (or byte value 0..255), increasing

    int size() const { return static_cast<int>(symbols.size()); }
    std::optional<int> id(char32_t symbol) const;
    // ids → UTF-8 text (bytes: the raw bytes, which need not be valid UTF-8).
    std::string decode(const std::vector<int>& ids) const;
    // text → ids. Throws InputError naming the first symbol not in the vocabulary (its position
    // counts symbols from 0) or the invalid UTF-8; `what` names the text ("the prompt").
    std::vector<int> encode(std::string_view text, std::string_view what) const;
    // One symbol for display: printable as itself, "\n", "\t", or "U+XXXX".
    std::string display(int id) const;
};

// [SECTION] Tasks ---------------------------------------------------------------------------

// B cases of T positions: targets(b, t) is the id that should follow inputs(b, 0..t), or −1
// where the position is not scored.
struct SequenceBatch {
    Tokens inputs;    // B×T
    Tokens targets;   // B×T
};

class SequenceTask {
public:
    // Builds the vocabulary and, for text, reads (or takes) and splits the text. Throws InputError
    // for an unreadable file, invalid UTF-8 or a text too short for the context, and
    // std::invalid_argument when validate(spec) is not empty.
    explicit SequenceTask(const TaskSpec& spec);

    const TaskSpec& spec() const { return spec_; }
    const Vocabulary& vocabulary() const { return vocab_; }
    bool synthetic() const { return spec_.kind != TaskKind::Text; }
    int context() const;              // T of every batch: 2n, or the text's context
    int separator() const;            // synthetic: the id of "|" (= D)
    std::string source() const;       // "sort", "copy", or the text's file (or "(text)")
    // Text: the ids of the training part and of the held-out part.
    const std::vector<int>& train_ids() const { return train_; }
    const std::vector<int>& validation_ids() const { return validation_; }

    // `batch` fresh training cases drawn with rng (synthetic: new problems; text: windows at
    // uniform offsets in the training part).
    void sample(Rng& rng, Eigen::Index batch, SequenceBatch& out) const;
    // The fixed evaluation set: `cases` problems drawn with Rng(seed) (synthetic), or up to `cases`
    // windows at evenly spread offsets in the held-out part (text; no randomness).
    SequenceBatch evaluation_set(Eigen::Index cases, std::uint64_t seed) const;
    // Synthetic: the answer to the problem `digits` (n ids in [0, D)): sorted, or the same.
    std::vector<int> answer(const std::vector<int>& digits) const;

private:
    void fill_problem(Rng& rng, Eigen::Index row, SequenceBatch& out) const;
    void fill_window(std::size_t start, Eigen::Index row, const std::vector<int>& ids, SequenceBatch& out) const;

    TaskSpec spec_;
    Vocabulary vocab_;
    std::string source_;
    std::vector<int> train_, validation_;
};

}  // namespace normlab
