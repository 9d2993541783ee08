// The input queue (app/kit/input_queue.hpp) with Dear ImGui headless: which events one frame
// takes. Typed text goes in at once (a slow frame must not make typing slow); a tap of a key that
// ImGui reads (Ctrl+Z, Backspace) still spans two frames, so ImGui sees it down once.
#include "input_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include "headless_imgui.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>
#include <string>

namespace normlab::ui {
namespace {

using T = InputEvent::Type;

class Queue : public ::testing::Test {
protected:
    void SetUp() override {
        ImGuiIO& io = create_headless_imgui();
        build_font_atlas(io);
        // As Dear ImGui 1.86's GLFW backend maps them.
        io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
        io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
        io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
        io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
        io.KeyMap[ImGuiKey_Z] = GLFW_KEY_Z;
    }
    void TearDown() override { ImGui::DestroyContext(); }

    // One key stroke as GLFW reports it: press, its character (if any), release.
    void stroke(int key, unsigned ch, int mods = 0) {
        queue.push({T::Key, key, GLFW_PRESS, mods});
        if (ch != 0) queue.push({T::Char, 0, 0, 0, ch});
        queue.push({T::Key, key, GLFW_RELEASE, mods});
    }
    // Feeds one frame and returns the text ImGui received in it.
    std::string frame() {
        queue.feed_imgui();
        std::string text;
        for (ImWchar c : ImGui::GetIO().InputQueueCharacters) text += static_cast<char>(c);
        ImGui::NewFrame();
        ImGui::EndFrame();   // clears the frame's characters
        return text;
    }

    InputQueue queue;
};

TEST_F(Queue, TypedWordGoesInInOneFrame) {
    for (char c : std::string("delta")) stroke(GLFW_KEY_A + (c - 'a'), static_cast<unsigned>(c));
    EXPECT_EQ(frame(), "delta");
    EXPECT_EQ(queue.presses().size(), 5u);   // the app's shortcuts still see each press
    EXPECT_FALSE(queue.pending());
    EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_D]);
}

TEST_F(Queue, CtrlTapIsDownForOneFrame) {
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0});
    stroke(GLFW_KEY_Z, 0, GLFW_MOD_CONTROL);
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL});
    queue.feed_imgui();
    EXPECT_TRUE(ImGui::GetIO().KeysDown[GLFW_KEY_Z]);
    EXPECT_TRUE(ImGui::GetIO().KeyCtrl);
    ASSERT_EQ(queue.presses().size(), 2u);
    EXPECT_EQ(queue.presses()[1].key, GLFW_KEY_Z);
    EXPECT_EQ(queue.presses()[1].mods, GLFW_MOD_CONTROL);
    ImGui::NewFrame();
    ImGui::EndFrame();
    frame();
    EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_Z]);
    EXPECT_FALSE(ImGui::GetIO().KeyCtrl);
}

// A key pressed with Ctrl and released after it: the release still reaches ImGui.
TEST_F(Queue, LetterHeldWithCtrlIsReleased) {
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0});
    queue.push({T::Key, GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_CONTROL});
    frame();
    EXPECT_TRUE(ImGui::GetIO().KeysDown[GLFW_KEY_A]);
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL});
    queue.push({T::Key, GLFW_KEY_A, GLFW_RELEASE, 0});
    frame();
    EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_A]);
}

// Backspace between letters: ImGui 1.86 reads the text before the keys, so Backspace gets a frame
// of its own and the letter after it waits (else "a", Backspace, "c" could read as "c", Backspace).
TEST_F(Queue, TextAfterBackspaceWaitsForTheNextFrame) {
    stroke(GLFW_KEY_A, 'a');
    stroke(GLFW_KEY_BACKSPACE, 0);
    stroke(GLFW_KEY_C, 'c');
    EXPECT_EQ(frame(), "a");
    EXPECT_EQ(frame(), "");   // Backspace down, alone
    EXPECT_TRUE(ImGui::GetIO().KeysDown[GLFW_KEY_BACKSPACE]);
    EXPECT_EQ(frame(), "c");
    EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_BACKSPACE]);
    EXPECT_FALSE(queue.pending());
}

}  // namespace
}  // namespace normlab::ui

namespace normlab::ui {
namespace {

// A text field as the Save dialog has it: focused by code, then typed into through the queue.
class Field : public Queue {
protected:
    std::string text;
    void draw() {
        queue.feed_imgui();
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(400.0f, 200.0f));
        ImGui::Begin("dialog");
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s", text.c_str());
        if (ImGui::InputText("##path", buf, sizeof buf)) text = buf;
        ImGui::End();
        ImGui::EndFrame();
    }
};

// xdotool's `key ctrl+a` (and a quick hand) releases Ctrl before A: A must still count with Ctrl.
TEST_F(Field, CtrlATapSelectsAllWhicheverKeyComesUpFirst) {
    text = "old";
    for (int i = 0; i < 3; ++i) draw();
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0});
    queue.push({T::Key, GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_CONTROL});
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL});
    queue.push({T::Key, GLFW_KEY_A, GLFW_RELEASE, 0});
    stroke(GLFW_KEY_X, 'x');
    for (int i = 0; i < 4; ++i) draw();
    EXPECT_EQ(text, "x");
}

TEST_F(Field, CtrlATapSelectsAll) {
    text = "old";
    for (int i = 0; i < 3; ++i) draw();
    for (char c : std::string("abc")) stroke(GLFW_KEY_A + (c - 'a'), static_cast<unsigned>(c));
    for (int i = 0; i < 3; ++i) draw();
    EXPECT_EQ(text, "abc");
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0});
    stroke(GLFW_KEY_A, 0, GLFW_MOD_CONTROL);
    queue.push({T::Key, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL});
    stroke(GLFW_KEY_X, 'x');
    for (int i = 0; i < 4; ++i) draw();
    EXPECT_EQ(text, "x");
}

}  // namespace
}  // namespace normlab::ui
