// normlab_i18n_check --english-share LOG MAX: of each page of a `normlab --check-layout --text-log`
// log, how many worded texts are still English; exit 1 when a page's share is above MAX percent.
//
// A text is worded when it holds a Hangul, Han or Kana character, or a Latin word of two letters
// or more; it is English when it holds no Hangul, Han or Kana and a Latin word that is not one of
// the terms every language keeps (docs/i18n/GLOSSARY.md: norm names, symbols and function names
// of formulas, units, number formats, product names). The layout checker's own records ("[slider
// grab]", "[value backdrop]", "[content of …]", "tab …") are not texts.
#include <normlab/base/line_break.hpp>
#include <normlab/base/text.hpp>

#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace normlab {

namespace {

// Latin words every language writes as they are.
const std::set<std::string, std::less<>> kKept = {
    "LayerNorm", "RMSNorm", "L2", "Norm", "pRMSNorm", "NormFormer", "BatchNorm", "WeightNorm", "LN", "Post", "Pre", "GPU", "CPU",
    "OpenGL", "llvmpipe", "LLVM", "bits", "GB", "MB", "KB", "ms", "RMS", "float16", "float32", "float64", "bfloat16",
    "AVX2", "FMA", "CSV", "PNG", "SVG", "JSON", "exp", "max", "min", "mean", "std", "ln", "log", "sqrt", "ReLU", "GELU",
    "Adam", "SGD", "MLP", "NaN", "inf", "Ctrl", "Shift", "Esc", "Alt", "lr", "var", "tanh", "softmax", "px", "Xavier",
    "He", "ulps", "ulp", "fwd", "bwd", "id", "dx", "dy", "dW", "glFinish", "dtype"};

bool is_cjk(char32_t c) { return is_wide_char(c) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xFF00 && c <= 0xFF60); }
bool is_latin_letter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }

struct Page {
    std::string name;
    int worded = 0;
    std::vector<std::string> english;
};

void count(Page& page, const std::string& text) {
    if (text.rfind("[slider grab]", 0) == 0 || text.rfind("[value backdrop]", 0) == 0 ||
        text.rfind("[content of ", 0) == 0 || text.rfind("tab ", 0) == 0)
        return;
    bool cjk = false, word = false, foreign = false;
    std::string latin;   // the Latin word being read
    const auto end_word = [&] {
        if (latin.size() >= 2) {
            word = true;
            if (kKept.count(latin) == 0) foreign = true;
        }
        latin.clear();
    };
    for (std::size_t i = 0; i < text.size();) {
        const char32_t c = next_code_point(text, i);
        if (is_latin_letter(c) || (!latin.empty() && c >= U'0' && c <= U'9')) {
            append_utf8(latin, c);
            continue;
        }
        end_word();
        cjk = cjk || is_cjk(c);
    }
    end_word();
    if (!cjk && !word) return;
    ++page.worded;
    if (!cjk && foreign) page.english.push_back(text);
}

}  // namespace

int english_share(const std::string& log_path, double max_percent) {
    std::ifstream in(log_path, std::ios::binary);
    if (!in) {
        std::cerr << "normlab_i18n_check: cannot read " << log_path << "\n";
        return 2;
    }
    std::vector<Page> pages;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("## ", 0) == 0) pages.push_back({line.substr(3), 0, {}});
        else if (!pages.empty()) count(pages.back(), line);
    }
    if (pages.empty()) {
        std::cerr << "normlab_i18n_check: " << log_path << " has no page\n";
        return 2;
    }
    int over = 0;
    for (const Page& p : pages) {
        const double share = p.worded == 0 ? 0.0 : 100.0 * static_cast<double>(p.english.size()) / p.worded;
        std::cout << p.name << ": " << p.english.size() << " of " << p.worded << " worded texts English ("
                  << static_cast<int>(share + 0.5) << " %)\n";
        if (share > max_percent) {
            ++over;
            for (const std::string& t : p.english) std::cout << "    " << t << "\n";
        }
    }
    return over == 0 ? 0 : 1;
}

}  // namespace normlab
