// NormLab core: undo and redo of a Session (see scene_history.hpp).
#include "normlab/scene/scene_history.hpp"

#include "normlab/scene/scene.hpp"

#include <utility>

namespace normlab {

namespace {
std::string text_of(const Session& s) { return session_to_json(s).dump(); }
}  // namespace

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
    start(session);
}

void SessionHistory::record(const Session& session, std::string text, bool step) {
    if (step) {
        undo_.push_back(std::move(current_));
        while (undo_.size() > limit_) undo_.pop_front();
        redo_.clear();
    }
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
    const bool step = input_since_step_;
    input_since_step_ = false;
    std::string text = text_of(session);
    if (text == current_text_) return false;
    record(session, std::move(text), step);
    return step;
}

void SessionHistory::flush(const Session& session) {
    if (!started_) {
        start(session);
        return;
    }
    std::string text = text_of(session);
    if (text != current_text_) record(session, std::move(text), true);
}

void SessionHistory::restore(Session& session, Session snapshot) {
    session = std::move(snapshot);
    current_ = session;
    current_text_ = text_of(session);
    input_since_step_ = false;
    ignore_input_ = true;
}

bool SessionHistory::undo(Session& session) {
    flush(session);
    if (undo_.empty()) return false;
    redo_.push_back(std::move(current_));
    Session previous = std::move(undo_.back());
    undo_.pop_back();
    restore(session, std::move(previous));
    return true;
}

bool SessionHistory::redo(Session& session) {
    flush(session);
    if (redo_.empty()) return false;
    undo_.push_back(std::move(current_));
    Session next = std::move(redo_.back());
    redo_.pop_back();
    restore(session, std::move(next));
    return true;
}

}  // namespace normlab
