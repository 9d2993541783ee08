// The input queue (app/kit/input_queue.hpp) with Dear ImGui headless: which events one frame
// takes. Typed text goes in at once (a slow frame must not make typing slow); a tap of a key that
// ImGui reads (Ctrl+Z, Backspace) still spans two frames, so ImGui sees it down once.
#include "input_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include "headless_imgui.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>   // GImGui->NavWindow: where the keyboard focus is

#include <algorithm>
#include <cstdio>
#include <vector>
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

namespace normlab::ui {
namespace {

// Keyboard navigation as the app sets it up (main.cpp): two buttons, a number field and a menu.
// Space and the arrows are the app's (Play, slides) until Tab shows a focus; Esc closes a menu.
class Nav : public Queue {
protected:
    void SetUp() override {
        Queue::SetUp();
        ImGuiIO& io = ImGui::GetIO();
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
        io.ConfigDragClickToInputText = true;
        io.MousePos = ImVec2(0.0f, 0.0f);   // the backend's: in the window
        io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
        io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
        io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
        io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
        io.KeyMap[ImGuiKey_UpArrow] = GLFW_KEY_UP;
        io.KeyMap[ImGuiKey_DownArrow] = GLFW_KEY_DOWN;
    }
    int pressed_a = 0, pressed_b = 0, chosen = 0;
    bool open_menu = false, menu_shown = false;
    bool menu_bar = false, file_shown = false;   // a main menu bar with a File menu (main_menu.cpp)
    double value = 1.0;
    ImVec2 field_centre;
    std::vector<int> app_keys;   // the presses the app saw, every frame
    void draw() {
        queue.feed_imgui();
        for (const KeyPress& p : queue.presses()) app_keys.push_back(p.key);
        ImGui::NewFrame();
        file_shown = false;
        if (menu_bar && ImGui::BeginMainMenuBar()) {
            file_shown = ImGui::BeginMenu("File");
            if (file_shown) {
                if (ImGui::MenuItem("item")) ++chosen;
                ImGui::EndMenu();
            }
            ImGui::EndMainMenuBar();
        }
        ImGui::SetNextWindowPos(ImVec2(0.0f, 20.0f));
        ImGui::SetNextWindowSize(ImVec2(400.0f, 300.0f));
        ImGui::Begin("lab");
        if (ImGui::Button("A")) ++pressed_a;
        if (ImGui::Button("B")) ++pressed_b;
        ImGui::DragScalar("##x", ImGuiDataType_Double, &value, 0.01f);
        field_centre = ImVec2(0.5f * (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x),
                              0.5f * (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y));
        if (open_menu) ImGui::OpenPopup("menu");
        open_menu = false;
        menu_shown = ImGui::BeginPopup("menu");
        if (menu_shown) {
            if (ImGui::MenuItem("item")) ++chosen;
            ImGui::EndPopup();
        }
        ImGui::End();
        ImGui::EndFrame();
    }
    void frames(int n) {
        for (int i = 0; i < n; ++i) draw();
    }
    int app_saw(int key) const { return static_cast<int>(std::count(app_keys.begin(), app_keys.end(), key)); }
};

TEST_F(Nav, WithoutAFocusSpaceAndArrowsAreTheAppsAlone) {
    frames(2);
    stroke(GLFW_KEY_RIGHT, 0);
    stroke(GLFW_KEY_SPACE, ' ');
    queue.push({T::Key, GLFW_KEY_DOWN, GLFW_PRESS, 0});
    frames(1);
    EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_DOWN]);   // not fed: ImGui shows no focus for it
    queue.push({T::Key, GLFW_KEY_DOWN, GLFW_RELEASE, 0});
    frames(4);
    EXPECT_EQ(app_saw(GLFW_KEY_RIGHT), 1);
    EXPECT_EQ(app_saw(GLFW_KEY_SPACE), 1);
    EXPECT_EQ(app_saw(GLFW_KEY_DOWN), 1);
    stroke(GLFW_KEY_ESCAPE, 0);               // leaves presenter view (lecture.cpp)
    frames(2);
    EXPECT_EQ(app_saw(GLFW_KEY_ESCAPE), 1);
    EXPECT_FALSE(ImGui::GetIO().NavVisible);
    EXPECT_EQ(pressed_a + pressed_b, 0);
}

TEST_F(Nav, TabShowsAFocusThatSpacePressesAndEscHides) {
    frames(2);
    stroke(GLFW_KEY_TAB, 0);
    frames(3);
    EXPECT_TRUE(ImGui::GetIO().NavVisible);
    stroke(GLFW_KEY_SPACE, ' ');
    frames(3);
    EXPECT_EQ(pressed_a, 1);                  // the first button has the focus
    EXPECT_EQ(app_saw(GLFW_KEY_SPACE), 0);    // and Space did not also play
    stroke(GLFW_KEY_DOWN, 0);                 // the arrows move the focus
    frames(3);
    stroke(GLFW_KEY_SPACE, ' ');
    frames(3);
    EXPECT_EQ(pressed_b, 1);
    EXPECT_EQ(app_saw(GLFW_KEY_DOWN), 0);
    stroke(GLFW_KEY_ESCAPE, 0);
    frames(3);
    EXPECT_FALSE(ImGui::GetIO().NavVisible);
    EXPECT_EQ(app_saw(GLFW_KEY_ESCAPE), 0);   // it hid the focus and did nothing else
    stroke(GLFW_KEY_SPACE, ' ');              // the app's again
    frames(3);
    EXPECT_EQ(app_saw(GLFW_KEY_SPACE), 1);
    EXPECT_EQ(pressed_a + pressed_b, 2);
}

TEST_F(Nav, EscClosesAMenu) {
    frames(2);
    open_menu = true;
    frames(2);
    ASSERT_TRUE(menu_shown);
    stroke(GLFW_KEY_ESCAPE, 0);
    frames(3);
    EXPECT_FALSE(menu_shown);
}

TEST_F(Nav, SpaceChoosesAMenuItem) {
    frames(2);
    open_menu = true;
    frames(2);
    ASSERT_TRUE(menu_shown);
    stroke(GLFW_KEY_DOWN, 0);                 // the focus on the item
    frames(3);
    stroke(GLFW_KEY_SPACE, ' ');
    frames(3);
    EXPECT_EQ(chosen, 1);
    EXPECT_FALSE(menu_shown);
    EXPECT_EQ(app_saw(GLFW_KEY_SPACE), 0);    // not also Play once the menu closed
}

// Dear ImGui 1.86 toggles the focused window's own menu layer on Alt; the lab's window has none.
TEST_F(Nav, AltReachesTheMainMenuBarAndComesBack) {
    menu_bar = true;
    frames(2);
    stroke(GLFW_KEY_TAB, 0);                  // a focus in the lab
    frames(3);
    stroke(GLFW_KEY_LEFT_ALT, 0);
    frames(3);
    stroke(GLFW_KEY_DOWN, 0);                 // opens the menu bar's first menu
    frames(3);
    ASSERT_TRUE(file_shown);
    stroke(GLFW_KEY_SPACE, ' ');
    frames(3);
    EXPECT_EQ(chosen, 1);
    EXPECT_EQ(pressed_a, 0);
    EXPECT_STREQ(GImGui->NavWindow->Name, "lab");   // the chosen item gave the focus back
    stroke(GLFW_KEY_LEFT_ALT, 0);             // to the menu bar, and back to the lab
    frames(3);
    EXPECT_STREQ(GImGui->NavWindow->Name, "##MainMenuBar");
    stroke(GLFW_KEY_LEFT_ALT, 0);
    frames(3);
    EXPECT_STREQ(GImGui->NavWindow->Name, "lab");
    EXPECT_FALSE(file_shown);
    EXPECT_EQ(pressed_a + pressed_b, 0);
    // Alt and ↓ tapped within one slow frame: ↓ waits for the frame after Alt's release, when the
    // menu bar has the focus (not the app's, which would step a slide).
    stroke(GLFW_KEY_LEFT_ALT, 0);
    stroke(GLFW_KEY_DOWN, 0);
    frames(4);
    EXPECT_TRUE(file_shown);
    EXPECT_EQ(app_saw(GLFW_KEY_DOWN), 0);
    stroke(GLFW_KEY_ESCAPE, 0);               // closes the menu
    frames(3);
    stroke(GLFW_KEY_ESCAPE, 0);               // leaves the menu bar: → is the app's again
    frames(3);
    stroke(GLFW_KEY_RIGHT, 0);
    frames(3);
    EXPECT_FALSE(file_shown);
    EXPECT_STREQ(GImGui->NavWindow->Name, "lab");
    EXPECT_EQ(app_saw(GLFW_KEY_RIGHT), 1);
}

TEST_F(Nav, OneClickInANumberFieldTypes) {
    frames(2);
    queue.push({T::Move, 0, 0, 0, 0, field_centre.x, field_centre.y});
    queue.push({T::Button, 0, GLFW_PRESS});
    queue.push({T::Button, 0, GLFW_RELEASE});
    frames(4);
    ASSERT_TRUE(ImGui::GetIO().WantTextInput);
    // The old value is selected: typing replaces it.
    stroke(GLFW_KEY_2, '2');
    stroke(GLFW_KEY_ENTER, 0);
    frames(4);
    EXPECT_EQ(value, 2.0);
    EXPECT_FALSE(ImGui::GetIO().WantTextInput);
}

}  // namespace
}  // namespace normlab::ui
