// NormLab core: undo and redo of a Session (see scene_history.hpp).
#include "normlab/scene/scene_history.hpp"

#include "normlab/plot/plot.hpp"
#include "normlab/scene/scene.hpp"

#include <string>
#include <utility>
#include <vector>

namespace normlab {

using nlohmann::json;

namespace {

std::string text_of(const Session& s) { return session_to_json(s).dump(); }

// [SECTION] Naming a change -----------------------------------------------------------------

constexpr std::size_t kListedEntries = 6;   // a longer array is "x (64 values)"

std::string symbol(const std::string& key) {
    if (key == "delta") return "δ";
    if (key == "eps") return "ε";
    if (key == "gamma") return "γ";
    std::string out = key;
    for (char& c : out)
        if (c == '_') c = ' ';
    return out;
}

std::size_t leaf_count(const json& j) {
    if (!j.is_structured()) return 1;
    std::size_t n = 0;
    for (const json& e : j) n += leaf_count(e);
    return n;
}

std::string value_text(const json& v) {
    if (v.is_number()) return format_number(v.get<double>(), 4);
    if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_array() && v.size() <= kListedEntries && leaf_count(v) == v.size()) {
        std::string out = "[";
        for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + value_text(v[i]);
        return out + "]";
    }
    return "";
}

// When arrays a and b have the same shape and differ in exactly one leaf: its 1-based index
// path ("₂", "₁,₂") and its new value.
bool one_entry(const json& a, const json& b, std::string& index, const json*& value) {
    if (!a.is_array() || !b.is_array()) {
        if (a.is_structured() || b.is_structured() || a == b) return false;
        value = &b;
        return true;
    }
    if (a.size() != b.size()) return false;
    int changed = -1;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == b[i]) continue;
        if (changed >= 0) return false;
        changed = static_cast<int>(i);
    }
    if (changed < 0) return false;
    std::string inner;
    if (!one_entry(a[changed], b[changed], inner, value)) return false;
    index = subscript(changed + 1) + (inner.empty() ? "" : "," + inner);
    return true;
}

// Each changed setting of the objects a → b, in words, appended to out (seeds to seeds).
void changes(const json& a, const json& b, std::vector<std::string>& out, std::vector<std::string>& seeds) {
    for (const auto& item : b.items()) {
        const std::string& key = item.key();
        const json& after = item.value();
        const json* before = a.is_object() && a.contains(key) ? &a.at(key) : nullptr;
        if (before != nullptr && *before == after) continue;
        if (before != nullptr && before->is_object() && after.is_object()) {
            changes(*before, after, out, seeds);
            continue;
        }
        std::string index;
        const json* value = nullptr;
        std::string text;
        if (before != nullptr && after.is_array() && one_entry(*before, after, index, value)) {
            text = symbol(key) + index + " = " + value_text(*value);
        } else if (const std::string v = value_text(after); !v.empty()) {
            text = symbol(key) + " = " + v;
        } else {
            text = symbol(key) + " (" + std::to_string(leaf_count(after)) + " values)";
        }
        (key == "seed" || key == "sample_seed" ? seeds : out).push_back(std::move(text));
    }
}

}  // namespace

StepName describe_change(const json& before, const json& after, const std::string& prefer) {
    const auto differs = [&](const std::string& key) {
        return after.contains(key) && !(before.contains(key) && before.at(key) == after.at(key));
    };
    for (const auto& item : after.items()) {
        if (!differs(item.key()) || (differs(prefer) && item.key() != prefer)) continue;
        std::vector<std::string> out, seeds;
        changes(before.contains(item.key()) ? before.at(item.key()) : json::object(), item.value(), out, seeds);
        out.insert(out.end(), seeds.begin(), seeds.end());
        std::string what;
        for (std::size_t i = 0; i < out.size() && i < 2; ++i) what += (i ? ", " : "") + out[i];
        if (out.size() > 2) what += ", …";
        return {item.key(), what};
    }
    return {};
}

// [SECTION] History -------------------------------------------------------------------------

void SessionHistory::start(const Session& session) {
    current_ = session;
    current_text_ = text_of(session);
    started_ = true;
    input_since_step_ = false;
    ignore_input_ = false;
}

void SessionHistory::reset(const Session& session) {
    undo_.clear();
    redo_.clear();
    undo_names_.clear();
    redo_names_.clear();
    dropped_ = 0;
    start(session);
}

void SessionHistory::record(const Session& session, std::string text) {
    undo_names_.push_back(describe_change(session_to_json(current_), session_to_json(session), lab_on_screen_));
    undo_.push_back(std::move(current_));
    while (undo_.size() > limit_) {
        undo_.pop_front();
        undo_names_.pop_front();
        ++dropped_;
    }
    redo_.clear();
    redo_names_.clear();
    current_ = session;
    current_text_ = std::move(text);
}

bool SessionHistory::observe(const Session& session, bool input, bool editing, double now) {
    if (!started_) {
        start(session);
        next_check_ = now + kHistoryCheckSeconds;
    }
    if (input && !ignore_input_) input_since_step_ = true;
    ignore_input_ = false;
    if (editing || (!input_since_step_ && now < next_check_)) return false;
    next_check_ = now + kHistoryCheckSeconds;
    input_since_step_ = false;
    std::string text = text_of(session);
    if (text == current_text_) return false;
    record(session, std::move(text));
    return true;
}

void SessionHistory::flush_pending(const Session& session) {
    if (!started_) {
        start(session);
        return;
    }
    std::string text = text_of(session);
    if (text != current_text_) record(session, std::move(text));
}

void SessionHistory::restore(Session& session, Session snapshot) {
    session = std::move(snapshot);
    current_ = session;
    current_text_ = text_of(session);
    input_since_step_ = false;
    ignore_input_ = true;
}

bool SessionHistory::undo(Session& session) {
    flush_pending(session);
    if (undo_.empty()) return false;
    redo_.push_back(std::move(current_));
    redo_names_.push_back(std::move(undo_names_.back()));
    undo_names_.pop_back();
    Session previous = std::move(undo_.back());
    undo_.pop_back();
    restore(session, std::move(previous));
    return true;
}

bool SessionHistory::redo(Session& session) {
    flush_pending(session);
    if (redo_.empty()) return false;
    undo_.push_back(std::move(current_));
    undo_names_.push_back(std::move(redo_names_.back()));
    redo_names_.pop_back();
    Session next = std::move(redo_.back());
    redo_.pop_back();
    restore(session, std::move(next));
    return true;
}

}  // namespace normlab
