// docs/LECTURES.md against the table of labs (app/labs/labs.cpp): each lab has a section
// ("### ID"), whose tables list exactly the figures and the controls a lecture file may name on
// its slides (SlideNames), in the lab's order; and the keys a lecture file reads are all there.
#include "labs.hpp"

#include <normlab/scene/scene.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using normlab::ui::kLabCount;
using normlab::ui::kLabs;

std::string read_doc() {
    std::ifstream in(std::string(NORMLAB_SOURCE_DIR) + "/docs/LECTURES.md");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Per lab section ("### ID …"): the first cells of its tables' rows, under "figure" or "control".
struct Listed {
    std::vector<std::string> figures, controls;
};

std::map<std::string, Listed> lab_sections(const std::string& doc) {
    std::map<std::string, Listed> out;
    std::istringstream in(doc);
    std::string line, lab, column;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) lab.clear();
        if (line.rfind("### ", 0) == 0) {
            lab = line.substr(4, line.find(' ', 4) == std::string::npos ? std::string::npos : line.find(' ', 4) - 4);
            out[lab];
            column.clear();
            continue;
        }
        if (lab.empty() || line.rfind("| ", 0) != 0) continue;
        const std::string cell = line.substr(2, line.find(" |", 2) - 2);
        if (cell == "figure" || cell == "control") {
            column = cell;
        } else if (cell.size() > 2 && cell.front() == '`' && cell.back() == '`') {
            (column == "figure" ? out[lab].figures : out[lab].controls).push_back(cell.substr(1, cell.size() - 2));
        }
    }
    return out;
}

TEST(LectureDocs, NameEveryLabsFiguresAndControls) {
    const std::map<std::string, Listed> sections = lab_sections(read_doc());
    for (int i = 0; i < kLabCount; ++i) {
        SCOPED_TRACE(kLabs[i].id);
        const auto it = sections.find(kLabs[i].id);
        ASSERT_NE(it, sections.end()) << "docs/LECTURES.md has no section \"### " << kLabs[i].id << "\"";
        std::vector<std::string> figures, controls;
        if (kLabs[i].slide != nullptr) {
            for (const auto& p : kLabs[i].slide->figures) figures.emplace_back(p.id);
            for (const auto& p : kLabs[i].slide->controls) controls.emplace_back(p.id);
        }
        EXPECT_EQ(it->second.figures, figures);
        EXPECT_EQ(it->second.controls, controls);
    }
    EXPECT_EQ(sections.size(), static_cast<std::size_t>(kLabCount)) << "a section for a lab that is not in kLabs";
}

// Every key a lecture reads is documented (as `"key"`): a lecture that names them all leaves none unread.
TEST(LectureDocs, NameEveryKey) {
    const std::string doc = read_doc();
    const auto j = nlohmann::json::parse(R"({"format": "normlab-lecture", "version": 1, "title": "t", "language": "en", "title_ko": "t",
        "slides": [{"scene": "a.json", "title": "t", "caption": "c", "caption_zh": "c", "figures": ["f"], "controls": ["c"],
                    "run": "auto"}]})");
    EXPECT_TRUE(normlab::lecture_from_json(j, "").ignored.empty());
    for (const char* key : {"format", "version", "title", "language", "title_ko", "slides", "scene", "caption", "caption_zh",
                            "figures", "controls", "run"})
        EXPECT_NE(doc.find(std::string("`\"") + key + "\"`"), std::string::npos) << key;
}

}  // namespace
