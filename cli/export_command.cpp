// `normlab-cli export`: the figures of a scene file (core's scene_plots), listed or written as
// SVG or CSV, without a window.
#include "commands.hpp"
#include "options.hpp"

#include "normlab/norm/eval.hpp"
#include "normlab/base/file_io.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_plots.hpp"

#include <iostream>
#include <stdexcept>

namespace normlab::cli {

const char kExportHelp[] = R"(Usage: normlab-cli export --scene FILE --list
       normlab-cli export --scene FILE --plot NAME --out FILE.svg|FILE.csv [--width W] [--height H] [--replace]

The figures of a scene (a NormLab scene file, e.g. assets/scenes/gradient_slopes.json), computed
from its lab states by the same core code as the app's figures.

Options:
  --scene FILE   the scene (required)
  --list         print the names of its figures, one per line: its own lab's first
  --plot NAME    the figure to write (a name from --list)
  --out FILE     where: .svg (a standalone SVG 1.1 figure) or .csv (series,x,y: every point);
                 a file already there is kept (exit 2) unless --replace is given
  --replace      replace the --out file when it exists (a link to a file: the file it names)
  --width W      SVG width in px, 200 to 4000 (default 720)
  --height H     SVG height in px, 150 to 4000 (default 450)

A PNG needs the app: normlab --scene FILE --export-plot NAME --scale K --out FILE.png
Keys of the scene this NormLab does not know are skipped, each named on stderr.
)";

namespace {

std::string extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return ext;
}

}  // namespace

int run_export(const Args& args) {
    const Options opt("export", args,
                      {{"scene", true}, {"list", false}, {"plot", true}, {"out", true}, {"width", true}, {"height", true},
                       {"replace", false}});
    const auto scene_path = opt.value("scene");
    if (!scene_path) throw InputError("export needs --scene FILE (a NormLab scene, e.g. assets/scenes/seed_example.json)");
    const bool list = opt.flag("list");
    const auto name = opt.value("plot");
    const auto out = opt.value("out");
    if (list && (name || out)) throw InputError("export: --list goes alone, or --plot NAME --out FILE");
    if (!list && !name) throw InputError("export needs --list, or --plot NAME --out FILE.svg|FILE.csv");
    if (name && !out) throw InputError("export --plot needs --out FILE.svg or FILE.csv");
    if (out && !name) throw InputError("export --out needs --plot NAME (see --list)");
    std::string ext;
    if (out) {
        ext = extension(*out);
        if (ext == "png")
            throw InputError("--out " + quote_for_message(*out) +
                             ": a PNG needs the app (normlab --scene FILE --export-plot NAME --out FILE.png); "
                             "normlab-cli writes .svg or .csv");
        if (ext != "svg" && ext != "csv")
            throw InputError("--out " + quote_for_message(*out) + " must end in .svg or .csv");
    }
    const auto width = static_cast<double>(opt.integer("width", 720, 200, 4000));
    const auto height = static_cast<double>(opt.integer("height", 450, 150, 4000));

    std::vector<std::string> ignored;
    const Scene scene = load_scene(*scene_path, &ignored);
    for (const std::string& key : ignored)
        std::cerr << "note: " << *scene_path << ": skipped " << key << " (not known to this NormLab)\n";
    if (list) {
        for (std::string_view n : scene_plot_names(scene)) std::cout << n << '\n';
        return 0;
    }
    Plot plot;
    try {
        plot = scene_plot(scene, *name);
    } catch (const InputError& e) {
        throw InputError(*scene_path + ": " + e.what());
    }
    const std::string text = ext == "svg" ? to_svg(plot, width, height) : to_csv(plot);
    try {
        write_file_atomically(*out, text, opt.flag("replace") ? IfExists::Replace : IfExists::Refuse);
    } catch (const FileExistsError&) {
        throw InputError("--out " + quote_for_message(*out) + " exists; not replaced (add --replace to replace it)");
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    return 0;
}

}  // namespace normlab::cli
