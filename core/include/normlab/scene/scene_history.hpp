// NormLab core: undo and redo of a Session — a bounded list of snapshots, taken when an edit ends.
//
// The app calls observe() once per frame, after the frame's edits, saying whether the user gave
// any input (a key, a click, a release, the wheel, a typed character) and whether an edit is still
// in progress (a widget held, a mouse button down). A change is recorded
//   - as a new step when there was input since the last step and the edit has ended, so a slider
//     drag, a typed number or a dragged point is one step, however many frames it took;
//   - folded into the last step when there was no input: what the labs change by themselves (a
//     lab fitting its state to another's after an undo) is part of the state the user sees, not
//     an edit of theirs. Without input the session is compared only every kHistoryCheckSeconds.
// Snapshots are compared by their JSON (session_to_json), so every lab with a scene section
// takes part without code of its own.
#pragma once

#include "normlab/scene/session.hpp"

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace normlab {

inline constexpr std::size_t kDefaultHistoryLimit = 200;   // steps kept; the oldest go first
inline constexpr double kHistoryCheckSeconds = 1.0;

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

    // Replace `session` by the previous / next step; false (and `session` untouched) when there
    // is none. A change not yet recorded becomes a step first, so that it can be redone. This
    // frame's input (the key that asked for it) does not count as an edit.
    bool undo(Session& session);
    bool redo(Session& session);

    std::size_t undo_count() const { return undo_.size(); }
    std::size_t redo_count() const { return redo_.size(); }

private:
    void start(const Session& session);
    void record(const Session& session, std::string text, bool step);
    void flush(const Session& session);
    void restore(Session& session, Session snapshot);

    std::size_t limit_;
    std::deque<Session> undo_;      // older states, newest last
    std::vector<Session> redo_;     // undone states, newest last
    Session current_;               // the session as of the last step
    std::string current_text_;      // session_to_json(current_).dump()
    bool started_ = false;
    bool input_since_step_ = false;
    bool ignore_input_ = false;     // the input of the frame of an undo / redo
    double next_check_ = 0.0;
};

}  // namespace normlab
