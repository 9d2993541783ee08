// Checked number fields (app/kit/fields.hpp): a value typed into a slider reaches the state only when
// its rule (core's number_rule.hpp) accepts it; otherwise the last valid value stays and the field
// says why; a text field (TextField) takes what is typed when its TextEntry says so. Dear ImGui
// runs headless here (no window, no GL): the tests type into the fields the way a user does
// (Ctrl+click or a click, then keys) through ImGuiIO.
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/scene/session.hpp>

#include "headless_imgui.hpp"

#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <limits>
#include <string>

namespace normlab::ui {
namespace {

// A headless Dear ImGui with one window (400 × 200 at the origin) whose contents draw() gives.
class FieldWindow : public ::testing::Test {
protected:
    void SetUp() override {
        ImGuiIO& io = create_headless_imgui();
        build_font_atlas(io);
        io.KeyMap[ImGuiKey_Enter] = kEnter;
        io.KeyMap[ImGuiKey_A] = kA;
        frame();   // lays the window out: its fields' rectangles are known from here on
    }
    void TearDown() override { ImGui::DestroyContext(); }
    virtual void draw() = 0;

    // One frame: the input given now, then the window.
    void frame() {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(400.0f, 200.0f));
        ImGui::Begin("fields");
        draw();
        ImGui::End();
        ImGui::Render();
    }
    // Enter pressed for a frame, then released.
    void enter() {
        ImGuiIO& io = ImGui::GetIO();
        io.KeysDown[kEnter] = true;
        frame();
        io.KeysDown[kEnter] = false;
        frame();
    }

    static constexpr int kEnter = 13, kA = 65;
};

// One checked ε slider (the Explorer's).
class TypedSlider : public FieldWindow {
protected:
    void draw() override {
        slot = field_slot("ε");
        checked_number("ε", eps, kLabEpsRule, [](double* v) {
            const double lo = 1e-12, hi = 1.0;
            return ImGui::SliderScalar("ε", ImGuiDataType_Double, v, &lo, &hi, "%.1e", ImGuiSliderFlags_Logarithmic);
        });
        slider_center = ImVec2(20.0f, ImGui::GetCursorStartPos().y + 0.5f * ImGui::GetFrameHeight());
    }

    // Ctrl+click on the slider (its text field opens), then the text typed, a frame per step.
    void type(const char* text) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = slider_center;
        frame();   // hovered
        io.KeyCtrl = true;
        io.MouseDown[0] = true;
        frame();   // Ctrl+click: the slider becomes a text field
        io.MouseDown[0] = false;
        io.KeyCtrl = false;
        frame();   // the text field takes the keyboard, its old text selected
        for (const char* c = text; *c; ++c) io.AddInputCharacter(static_cast<unsigned>(*c));
        frame();   // typed: Dear ImGui applies the text at once
        enter();
    }

    double eps = 1e-5;
    ImGuiID slot = 0;
    ImVec2 slider_center;
};

TEST_F(TypedSlider, AValidValueIsTaken) {
    type("0.5");
    EXPECT_EQ(eps, 0.5);
    EXPECT_EQ(field_message_text(slot), "");
}

TEST_F(TypedSlider, ZeroIsRefusedTheOldValueStaysAndTheFieldSaysWhy) {
    type("0");
    EXPECT_EQ(eps, 1e-5);
    EXPECT_EQ(field_message_text(slot), "✗ ε = 0 is out of range (0, 1]; kept 1.000e\xE2\x88\x92" "05");
}

TEST_F(TypedSlider, OverflowToInfinityIsRefused) {
    type("1e999");
    EXPECT_EQ(eps, 1e-5);
    EXPECT_EQ(field_message_text(slot), "✗ ε = inf is not finite; kept 1.000e\xE2\x88\x92" "05");
}

TEST_F(TypedSlider, ANegativeValueIsRefusedThenAValidOneClearsTheMessage) {
    type("-3");
    EXPECT_EQ(eps, 1e-5);
    EXPECT_EQ(field_message_text(slot), "✗ ε = \xE2\x88\x92" "3 is out of range (0, 1]; kept 1.000e\xE2\x88\x92" "05");
    type("0.001");
    EXPECT_EQ(eps, 0.001);
    EXPECT_EQ(field_message_text(slot), "");
}

// accept_number itself, without a widget: NaN (Dear ImGui's "/0" on a 0) never reaches the value.
TEST(AcceptNumber, NaNIsRefusedAndAnUnchangedWidgetChangesNothing) {
    ImGui::CreateContext();
    const ImGuiID slot = 12345;
    double v = 2.0;
    EXPECT_FALSE(accept_number(slot, "δ", true, std::numeric_limits<double>::quiet_NaN(), v, kExplorerDeltaRule));
    EXPECT_EQ(v, 2.0);
    EXPECT_EQ(field_message_text(slot), "✗ δ is NaN; kept 2.000");
    EXPECT_FALSE(accept_number(slot, "δ", false, 5.0, v, kExplorerDeltaRule)) << "not edited: nothing to take";
    EXPECT_EQ(v, 2.0);
    EXPECT_TRUE(accept_number(slot, "δ", true, 5.0, v, kExplorerDeltaRule));
    EXPECT_EQ(v, 5.0);
    EXPECT_EQ(field_message_text(slot), "");
    ImGui::DestroyContext();
}

// The message is written as it is drawn: after View ▸ Language it is in the new language.
TEST(AcceptNumber, TheMessageFollowsTheLanguage) {
    ImGui::CreateContext();
    const ImGuiID slot = 4242;
    double v = 2.0;
    EXPECT_FALSE(accept_number(slot, "δ", true, 5000.0, v, kExplorerDeltaRule));
    EXPECT_EQ(field_message_text(slot), "✗ δ = 5000 is out of range [0.001, 1000]; kept 2.000");
    normlab::set_language(normlab::Language::Ko, normlab::parse_po(
        "msgid \"{0} = {1} is out of range {2}\"\nmsgstr \"{0} = {1}은(는) {2} 범위를 벗어납니다\"\n"
        "msgid \"{0}; kept {1}\"\nmsgstr \"{0}; 이전 값 {1}을(를) 유지합니다\"\n", "ko.po"));
    EXPECT_EQ(field_message_text(slot), "✗ δ = 5000은(는) [0.001, 1000] 범위를 벗어납니다; 이전 값 2.000을(를) 유지합니다");
    normlab::set_language(normlab::Language::En, normlab::Catalog{});
    ImGui::DestroyContext();
}

// A message says what the field kept: once the value changes another way (a scene opened, undo,
// a lab's key), the message goes; a grid's other entries, sharing the slot, leave it alone.
TEST(AcceptNumber, TheMessageGoesWhenTheKeptValueChangesAnotherWay) {
    ImGui::CreateContext();
    const ImGuiID slot = 777;
    double x[2] = {1.0, 2.0};
    EXPECT_FALSE(accept_number(slot, "x₁", true, 1e300, x[0], kExplorerEntryRule));
    EXPECT_NE(field_message_text(slot), "");
    EXPECT_FALSE(accept_number(slot, "x₂", false, x[1], x[1], kExplorerEntryRule));   // the grid's next entry
    EXPECT_NE(field_message_text(slot), "") << "another entry of the grid drawn: the message stays";
    EXPECT_FALSE(accept_number(slot, "x₁", false, x[0], x[0], kExplorerEntryRule));
    EXPECT_NE(field_message_text(slot), "") << "the kept value unchanged: the message stays";
    x[0] = 3.0;   // e.g. undo
    EXPECT_FALSE(accept_number(slot, "x₁", false, x[0], x[0], kExplorerEntryRule));
    EXPECT_EQ(field_message_text(slot), "");
    ImGui::DestroyContext();
}

// A text field over a value (TextField): typed into the way a user does (a click, keys), then
// Enter or a click elsewhere. `value` stands for the session's value; an entry is applied to it.
class TypedTextField : public FieldWindow {
protected:
    void draw() override {
        field_center = ImVec2(40.0f, ImGui::GetCursorStartPos().y + 0.5f * ImGui::GetFrameHeight());
        if (text_field("##path", nullptr, field, value, entry)) value = field.text;
    }
    void click(ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        frame();
        io.MouseDown[0] = true;
        frame();
        io.MouseDown[0] = false;
        frame();
    }
    // A click into the field, Ctrl+A, the text typed.
    void type(const char* text) {
        ImGuiIO& io = ImGui::GetIO();
        click(field_center);
        io.KeyCtrl = io.KeysDown[kA] = true;
        frame();
        io.KeyCtrl = io.KeysDown[kA] = false;
        for (const char* c = text; *c; ++c) io.AddInputCharacter(static_cast<unsigned>(*c));
        frame();
    }
    void click_elsewhere() { click(ImVec2(200.0f, 150.0f)); }

    TextEntry entry = TextEntry::EnterOrLeave;
    TextField field;
    std::string value = "a.csv";
    ImVec2 field_center;
};

TEST_F(TypedTextField, EnterOrLeaveTakesTheTextWhenTheFocusLeaves) {
    type("b.csv");
    EXPECT_EQ(value, "a.csv") << "still typing";
    click_elsewhere();
    EXPECT_EQ(value, "b.csv");
    type("c.csv");
    enter();
    EXPECT_EQ(value, "c.csv");
}

// The Training lab's CSV path: only Enter (or its Load button, which reads field.text) reads a
// file; a click elsewhere leaves the draft in the field, and a value changed elsewhere replaces it.
TEST_F(TypedTextField, EnterOnlyKeepsTheDraftUntilEnter) {
    entry = TextEntry::EnterOnly;
    frame();
    EXPECT_EQ(field.text, "a.csv");
    type("b.csv");
    click_elsewhere();
    EXPECT_EQ(value, "a.csv") << "the focus left: not an entry";
    EXPECT_EQ(field.text, "b.csv") << "the draft stays for Load";
    frame();
    EXPECT_EQ(field.text, "b.csv");
    type("c.csv");
    enter();
    EXPECT_EQ(value, "c.csv");
    frame();
    EXPECT_EQ(field.text, "c.csv");
    type("d.csv");
    click_elsewhere();
    value = "e.csv";   // e.g. a scene opened
    frame();
    EXPECT_EQ(field.text, "e.csv") << "the value changed elsewhere: the field shows it";
}

}  // namespace
}  // namespace normlab::ui
