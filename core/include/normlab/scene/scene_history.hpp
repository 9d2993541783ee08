// NormLab core: undo and redo of a Session — a bounded list of snapshots, taken when an edit ends.
//
// The app calls observe() once per frame, after the frame's edits, saying whether the user gave
// any input (a key, a click, a release, the wheel, a typed character) and whether an edit is still
// in progress (a widget held, a mouse button down). A change is recorded
//   - as a new step when there was input since the last step and the edit has ended, so a slider
//     drag, a typed number or a dragged point is one step, however many frames it took;
//   - as a new step too when there was no input (none is expected: no lab changes the session by
//     itself, docs/ARCHITECTURE.md, Data flow), but found only by a comparison every
//     kHistoryCheckSeconds.
// Snapshots are compared by their JSON (session_to_json), so every lab with a scene section
// takes part without code of its own. Each step is named by what changed (describe_change), so
// that Edit ▸ Undo can say what it undoes and in which lab.
#pragma once

#include "normlab/scene/session.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace normlab {

inline constexpr std::size_t kDefaultHistoryLimit = 200;   // steps kept; the oldest go first
inline constexpr double kHistoryCheckSeconds = 1.0;

// What a step changed: the lab's scene section ("explorer") and the change in words, e.g.
// "x₂ = 5", "x = [2, 4, 6, 8]", "δ = 10, ε = 0.001", "W (16 values)". Empty lab: nothing changed.
struct StepName {
    std::string lab;
    std::string what;
};

// The lab section `prefer` when it differs between `before` and `after` (the lab on screen: a
// worked-example preset changes the Explorer's x too), else the first that does (session_to_json
// order), and up to two of its changed settings (a "seed" last: it is the cause, not the change), "…" for more.
// An array with one entry changed names that entry (1-based subscripts); a short one is listed
// whole; numbers as format_number prints them (4 significant digits).
StepName describe_change(const nlohmann::json& before, const nlohmann::json& after, const std::string& prefer = "");

class SessionHistory {
public:
    explicit SessionHistory(std::size_t limit = kDefaultHistoryLimit) : limit_(limit) {}

    // Forgets every step: `session` is where undo starts.
    void reset(const Session& session);

    // See above; `now` in seconds (any clock). The first call starts from `session`. Returns true
    // when it recorded a new step.
    bool observe(const Session& session, bool input, bool editing, double now);

    // The next change counts as the user's (a file opened, a slide shown): a step of its own.
    void mark_input() { input_since_step_ = true; }

    // The scene section of the lab on screen (its id), preferred when a step is named.
    void set_lab_on_screen(std::string lab) { lab_on_screen_ = std::move(lab); }

    // Replace `session` by the previous / next step; false (and `session` untouched) when there
    // is none. A change not yet recorded becomes a step first, so that it can be redone. This
    // frame's input (the key that asked for it) does not count as an edit.
    bool undo(Session& session);
    bool redo(Session& session);

    std::size_t undo_count() const { return undo_.size(); }
    std::size_t redo_count() const { return redo_.size(); }
    // How many steps lie behind the session now, counting those dropped past the limit: an undo
    // lowers it by one, a new step or a redo raises it. Another history (a lecture's edits,
    // lecture_edit.hpp) marks its steps with it to interleave with these.
    std::uint64_t position() const { return dropped_ + undo_.size(); }

    // A change not yet recorded becomes a step now (undo and redo do this first).
    void flush_pending(const Session& session);

    // What undo() / redo() would change back / again; null when there is nothing to undo / redo.
    // A change not yet recorded is not named here: flush_pending first.
    const StepName* next_undo() const { return undo_names_.empty() ? nullptr : &undo_names_.back(); }
    const StepName* next_redo() const { return redo_names_.empty() ? nullptr : &redo_names_.back(); }

private:
    void start(const Session& session);
    void record(const Session& session, std::string text);
    void restore(Session& session, Session snapshot);

    std::size_t limit_;
    std::deque<Session> undo_;      // older states, newest last
    std::vector<Session> redo_;     // undone states, newest last
    std::deque<StepName> undo_names_;    // [i]: the change from undo_[i] to the state after it
    std::vector<StepName> redo_names_;   // [i]: the change from the state before redo_[i] to it
    Session current_;               // the session as of the last step
    std::string current_text_;      // session_to_json(current_).dump()
    std::string lab_on_screen_;
    bool started_ = false;
    bool input_since_step_ = false;
    bool ignore_input_ = false;     // the input of the frame of an undo / redo
    double next_check_ = 0.0;
    std::uint64_t dropped_ = 0;     // steps dropped past the limit
};

}  // namespace normlab
