// `normlab-cli export`: the figures of a scene file (core's scene_plots), listed, or written as
// SVG, CSV or PNG without a window: one figure, or all of them with each lab computed once.
//
// [SECTION] Help and options
// [SECTION] Files     — formats, target names, no silent overwrite
// [SECTION] Commands  — --list, --plot, --all
#include "commands.hpp"
#include "options.hpp"
#include "png_writer.hpp"

#include "normlab/base/data_files.hpp"
#include "normlab/base/file_io.hpp"
#include "normlab/models/datasets.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/plot/table.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_plots.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <unistd.h>

namespace normlab::cli {

// [SECTION] Help and options ----------------------------------------------------------------

const char kExportHelp[] = R"(Usage: normlab-cli export --scene FILE --list
       normlab-cli export --scene FILE --plot NAME --out FILE.svg|.csv|.png|.md|.tex [options]
       normlab-cli export --scene FILE --all --out-dir DIR [--format svg,csv,png,md,tex] [options]

The figures of a scene (a NormLab scene file, e.g. assets/scenes/gradient_slopes.json), computed
from its lab states by the same core code as the app's figures. No window or X server is needed,
also for PNG (EGL's surfaceless Mesa platform; the app's own renderer).

Options:
  --scene FILE   the scene (required)
  --list         print the names of its figures and tables, one per line: its own lab's first
  --plot NAME    the figure or table to write (a name from --list) to --out FILE: .svg (a
                 standalone SVG 1.1 figure); .csv (a plot: a header naming the axes, then
                 series,x,y, every point, each row naming its series; a table: its cells); .png
                 (plots); .md (Markdown) or .tex (LaTeX, booktabs) (tables)
  --all          every figure, each lab computed once, to --out-dir DIR (created if missing) as
                 DIR/NAME.EXT; the paths written are printed, one per line
  --format LIST  with --all: which of svg, csv, png, md, tex (default all; each figure in those
                 of its kind's formats)
  --scale K      PNG pixels: K× the size, K = 1 to 4 (default 1)
  --width W      figure width in px at 1×, 200 to 4000 (default 720)
  --height H     figure height in px at 1×, 150 to 4000 (default 450)
  --replace      replace files that exist (a link to a file: the file it names); without it, a
                 file already there is kept, nothing is written and the exit code is 2
  --read-outside-files
                 let the scene read the data files it names outside its own folder and assets/
                 (labs.training.csv_path, labs.depth.text_path; relative ones are relative to
                 the scene's folder); without it such a scene is refused (exit 2)

Keys of the scene this NormLab does not know are skipped, each named on stderr.
)";

namespace {

// Writes of one run: the checks are done before anything is computed or written.
struct ExportTarget {
    std::string path, format;   // format: svg, csv or png
};

struct FigureSize {
    int width = 720, height = 450, scale = 1;
};

// [SECTION] Files ---------------------------------------------------------------------------

std::string extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return ext;
}

bool known_format(const std::string& f) {
    return f == "svg" || f == "csv" || f == "png" || f == "md" || f == "tex";
}

// Whether a plot (png: yes; md, tex: no) or a table (png: no; md, tex: yes) is written as `f`.
bool has_format(bool table, const std::string& f) {
    if (f == "svg" || f == "csv") return true;
    return table ? f == "md" || f == "tex" : f == "png";
}

// `what` names the file as the user gave it: "--out \"x.svg\"" or just the path.
std::string exists_message(const std::string& what) { return what + " exists; not replaced (add --replace to replace it)"; }

// Refuses (InputError) a target that exists unless --replace, before anything is computed or
// written: a batch writes all of its files or none. (The writes refuse too: a file made since
// is not replaced either.)
void check_targets(const std::vector<ExportTarget>& targets, bool replace) {
    if (replace) return;
    for (const ExportTarget& t : targets)
        if (path_exists(t.path)) throw InputError(exists_message(quote_for_message(t.path)));
}

// The renderer for PNG targets, made once per run (a GL context).
class Renderers {
public:
    static std::string bytes(const Table& table, const std::string& format) {
        if (format == "svg") return table_to_svg(table);
        if (format == "md") return table_to_markdown(table);
        if (format == "tex") return table_to_latex(table);
        return table_to_csv(table);
    }
    std::string bytes(const Plot& plot, const std::string& format, const FigureSize& size) {
        if (format == "svg") return to_svg(plot, size.width, size.height);
        if (format == "csv") return to_csv(plot);
        if (!png_) {
            std::string error;
            png_ = PngWriter::open(error);
            if (!png_) throw InputError("cannot render PNG without a window: " + error);
        }
        std::string png;
        if (const std::string error = png_->encode(plot, size.width, size.height, size.scale, png); !error.empty())
            throw InputError(plot.name + ".png: " + error);
        return png;
    }

private:
    std::unique_ptr<PngWriter> png_;
};

void write(const std::string& path, const std::string& bytes, bool replace, const std::string& what) {
    try {
        write_file_atomically(path, bytes, replace ? IfExists::Replace : IfExists::Refuse);
    } catch (const FileExistsError&) {
        throw InputError(exists_message(what));
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
}

// [SECTION] Commands ------------------------------------------------------------------------


int export_one(const Scene& scene, const std::string& scene_path, const std::string& name, const std::string& out,
               const FigureSize& size, bool replace) {
    const std::string ext = extension(out);
    const bool table = is_table_name(name);
    if (!known_format(ext) || !has_format(table, ext))
        throw InputError("--out " + quote_for_message(out) + " must end in " +
                         (table ? ".svg, .csv, .md or .tex (a table)" : ".svg, .csv or .png"));
    const std::string what = "--out " + quote_for_message(out);
    if (!replace && path_exists(out)) throw InputError(exists_message(what));
    Renderers renderers;
    std::string bytes;
    try {
        bytes = table ? Renderers::bytes(scene_table(scene, name), ext) : renderers.bytes(scene_plot(scene, name), ext, size);
    } catch (const InputError& e) {
        throw InputError(scene_path + ": " + e.what());
    }
    write(out, bytes, replace, what);
    return 0;
}

// --all: every file is written into a staging folder inside DIR first and moved in only once
// all are written, so a failure (a bad CSV row, a full disk) leaves DIR as it was: a batch
// writes all of its files or none. (docs/RELIABILITY.md, Files, signals and limits.)
int export_all(const Scene& scene, const std::string& scene_path, const std::string& dir,
               const std::vector<std::string>& formats, const FigureSize& size, bool replace) {
    namespace fs = std::filesystem;
    const auto file_name = [](std::string_view name, const std::string& format) { return std::string(name) + "." + format; };
    std::vector<ExportTarget> all;
    for (std::string_view name : scene_plot_names(scene))
        for (const std::string& f : formats)
            if (has_format(is_table_name(name), f)) all.push_back({(fs::path(dir) / file_name(name, f)).string(), f});
    check_targets(all, replace);
    std::error_code ec;
    const bool made_dir = !fs::exists(dir, ec);
    fs::create_directories(dir, ec);
    if (ec) throw InputError("cannot create the folder " + quote_for_message(dir) + ": " + ec.message());
    const fs::path staging = fs::path(dir) / (".normlab-export." + std::to_string(::getpid()));
    fs::remove_all(staging, ec);
    if (!fs::create_directory(staging, ec) || ec)
        throw InputError("cannot create the staging folder " + quote_for_message(staging.string()) + ": " + ec.message());
    const auto clean_up = [&] {
        fs::remove_all(staging, ec);
        if (made_dir) fs::remove(dir, ec);   // only when empty: it was made for this batch
    };

    std::vector<std::string> staged;   // file names, in the order written
    try {
        Renderers renderers;
        const auto emit = [&](const std::string& name, const std::string& f, const std::string& bytes) {
            write((staging / file_name(name, f)).string(), bytes, false, quote_for_message((fs::path(dir) / file_name(name, f)).string()));
            staged.push_back(file_name(name, f));
        };
        for (std::string_view lab : scene_labs(scene)) {
            std::vector<Plot> plots;
            std::vector<Table> tables;
            try {
                plots = lab_plots(scene.session, lab);
                tables = lab_tables(scene.session, lab);
            } catch (const InputError& e) {
                throw InputError(scene_path + ": " + e.what());
            }
            for (const std::string& f : formats) {
                for (const Plot& plot : plots)
                    if (has_format(false, f)) emit(plot.name, f, renderers.bytes(plot, f, size));
                for (const Table& table : tables)
                    if (has_format(true, f)) emit(table.name, f, Renderers::bytes(table, f));
            }
        }
    } catch (...) {
        clean_up();
        throw;
    }
    // Everything is written: move it in. Without --replace a file made meanwhile stops the
    // batch and the files already moved go back, so DIR again holds none of them.
    std::vector<std::string> moved;
    for (const std::string& name : staged) {
        const std::string target = (fs::path(dir) / name).string();
        try {
            move_file((staging / name).string(), target, replace ? IfExists::Replace : IfExists::Refuse);
        } catch (const std::runtime_error& e) {
            if (!replace)
                for (const std::string& m : moved) ::rename((fs::path(dir) / m).c_str(), (staging / m).c_str());
            clean_up();
            const std::string written = replace && !moved.empty()
                                            ? " (" + std::to_string(moved.size()) + " of " + std::to_string(staged.size()) +
                                                  " files were written before it)"
                                            : " (none of the batch was written)";
            if (dynamic_cast<const FileExistsError*>(&e) != nullptr)
                throw InputError(exists_message(quote_for_message(target)) + written);
            throw InputError(e.what() + written);
        }
        moved.push_back(name);
    }
    fs::remove_all(staging, ec);
    for (const std::string& name : moved) std::cout << (fs::path(dir) / name).string() << '\n';
    return 0;
}

std::vector<std::string> parse_formats(const Options& opt) {
    std::vector<std::string> formats = opt.items("format");
    if (formats.empty()) formats = {"svg", "csv", "png", "md", "tex"};
    for (std::string& f : formats) {
        for (char& c : f) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (!known_format(f)) throw InputError("unknown --format " + quote_for_message(f) + " (expected svg, csv, png, md, tex)");
    }
    std::vector<std::string> unique;
    for (const std::string& f : formats)
        if (std::find(unique.begin(), unique.end(), f) == unique.end()) unique.push_back(f);
    return unique;
}

}  // namespace

Scene open_scene(const std::string& path, bool read_outside) {
    std::vector<std::string> ignored;
    Scene scene = load_scene(path, &ignored);
    for (const std::string& key : ignored)
        std::cerr << "note: " << path << ": skipped " << key << " (not known to this NormLab)\n";
    const std::string folder = std::filesystem::absolute(path).parent_path().string();
    const std::vector<SceneDataFile> outside = data_files_outside(scene.session, {folder, shipped_assets_dir()});
    if (!outside.empty() && !read_outside)
        throw InputError(path + ": " + outside.front().key + " names " + quote_for_message(outside.front().path) +
                         ", outside the scene's folder; not read (add --read-outside-files to read it)");
    // The same rule at every read, on the file actually opened: a data file swapped for a link
    // to outside after this check is refused then (base/data_files.hpp).
    if (!read_outside) set_read_scope(std::vector<std::string>{folder, shipped_assets_dir()});
    return scene;
}

int run_export(const Args& args) {
    const Options opt("export", args,
                      {{"scene", true}, {"list", false}, {"plot", true}, {"out", true}, {"all", false},
                       {"out-dir", true}, {"format", true}, {"scale", true}, {"width", true}, {"height", true},
                       {"replace", false}, {"read-outside-files", false}});
    const auto scene_path = opt.value("scene");
    if (!scene_path) throw InputError("export needs --scene FILE (a NormLab scene, e.g. assets/scenes/seed_example.json)");
    const bool list = opt.flag("list"), all = opt.flag("all");
    const auto name = opt.value("plot"), out = opt.value("out"), dir = opt.value("out-dir");
    if (int(list) + int(all) + int(name.has_value()) > 1)
        throw InputError("export: one of --list, --plot NAME --out FILE, or --all --out-dir DIR");
    if (!list && !all && !name) throw InputError("export needs --list, --plot NAME --out FILE, or --all --out-dir DIR");
    if (name && !out) throw InputError("export --plot needs --out FILE.svg, FILE.csv or FILE.png (.md or .tex: tables)");
    if (out && !name) throw InputError("export --out needs --plot NAME (see --list)");
    if (all && !dir) throw InputError("export --all needs --out-dir DIR");
    if (dir && !all) throw InputError("export --out-dir goes with --all");
    if (opt.value("format") && !all) throw InputError("export --format goes with --all (--out FILE.EXT names its own)");
    FigureSize size;
    size.width = static_cast<int>(opt.integer("width", 720, 200, 4000));
    size.height = static_cast<int>(opt.integer("height", 450, 150, 4000));
    size.scale = static_cast<int>(opt.integer("scale", 1, 1, 4));
    const std::vector<std::string> formats = all ? parse_formats(opt) : std::vector<std::string>{};

    const Scene scene = open_scene(*scene_path, opt.flag("read-outside-files"));
    if (list) {
        for (std::string_view n : scene_plot_names(scene)) std::cout << n << '\n';
        return 0;
    }
    if (all) return export_all(scene, *scene_path, *dir, formats, size, opt.flag("replace"));
    return export_one(scene, *scene_path, *name, *out, size, opt.flag("replace"));
}

}  // namespace normlab::cli
