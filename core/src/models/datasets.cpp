// NormLab core: the training lab's data sets (see datasets.hpp).
//
// [SECTION] Names
// [SECTION] 2D generators (TensorFlow Playground's dataset.ts, scikit-learn's make_moons)
// [SECTION] Files (zlib) and the CSV parser
// [SECTION] Split & scale
#include "normlab/models/datasets.hpp"
#include "normlab/base/i18n.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/base/parse_double.hpp"
#include "normlab/base/random.hpp"

#include "normlab/base/data_files.hpp"
#include "normlab/base/file_io.hpp"   // kMaxDataBytes, describe_size
#include "normlab/base/text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

#ifndef NORMLAB_SOURCE_ASSETS_DIR
#define NORMLAB_SOURCE_ASSETS_DIR "assets"
#endif

namespace normlab {

using Eigen::Index;

// [SECTION] Names ---------------------------------------------------------------------------

namespace {
struct DatasetName {
    DatasetKind kind;
    std::string_view id;
    std::string_view display;
};
constexpr DatasetName kDatasetNames[] = {
    {DatasetKind::Circle, "circle", tr_later("Circle")}, {DatasetKind::Xor, "xor", "XOR"},
    {DatasetKind::Gauss, "gauss", tr_later("Gaussians")}, {DatasetKind::Spiral, "spiral", tr_later("Spiral")},
    {DatasetKind::Moons, "moons", tr_later("Moons")},   {DatasetKind::Digits, "digits", tr_later("Digits (8×8)")},
    {DatasetKind::Csv, "csv", tr_later("CSV file")},
};
}  // namespace

std::string_view to_string(DatasetKind kind) {
    for (const DatasetName& d : kDatasetNames)
        if (d.kind == kind) return d.id;
    return "unknown";
}

std::string_view display_name(DatasetKind kind) {
    for (const DatasetName& d : kDatasetNames)
        if (d.kind == kind) return d.display;
    return "Unknown";
}

std::optional<DatasetKind> parse_dataset(std::string_view name) {
    for (const DatasetName& d : kDatasetNames)
        if (d.id == name) return d.kind;
    return std::nullopt;
}

bool is_synthetic_2d(DatasetKind kind) {
    return kind == DatasetKind::Circle || kind == DatasetKind::Xor || kind == DatasetKind::Gauss ||
           kind == DatasetKind::Spiral || kind == DatasetKind::Moons;
}

// [SECTION] 2D generators -------------------------------------------------------------------

namespace {
constexpr double kPi = 3.141592653589793238462643;

Samples two_class_samples(Index n) {
    Samples s;
    s.X.resize(n, 2);
    s.y.resize(n);
    s.classes = 2;
    s.class_names = {"0", "1"};
    s.feature_names = {"x1", "x2"};
    return s;
}
}  // namespace

Samples make_circle(Index n, double noise, Rng& rng) {
    // Playground: radius 5; class 1 drawn inside r < 2.5, class 0 on the ring 3.5 ≤ r < 5;
    // the label is that of the noisy point (inside 2.5 or not), the stored point is noise-free.
    const double radius = 5.0;
    Samples s = two_class_samples(n);
    for (Index i = 0; i < n; ++i) {
        const bool inner = i < (n + 1) / 2;
        const double r = inner ? rng.uniform(0.0, radius * 0.5) : rng.uniform(radius * 0.7, radius);
        const double angle = rng.uniform(0.0, 2.0 * kPi);
        const double x = r * std::sin(angle), y = r * std::cos(angle);
        const double nx = rng.uniform(-radius, radius) * noise, ny = rng.uniform(-radius, radius) * noise;
        s.X(i, 0) = x;
        s.X(i, 1) = y;
        s.y(i) = std::hypot(x + nx, y + ny) < radius * 0.5 ? 1 : 0;
    }
    return s;
}

Samples make_xor(Index n, double noise, Rng& rng) {
    Samples s = two_class_samples(n);
    const double padding = 0.3;
    for (Index i = 0; i < n; ++i) {
        double x = rng.uniform(-5.0, 5.0);
        x += x > 0 ? padding : -padding;
        double y = rng.uniform(-5.0, 5.0);
        y += y > 0 ? padding : -padding;
        const double nx = rng.uniform(-5.0, 5.0) * noise, ny = rng.uniform(-5.0, 5.0) * noise;
        s.X(i, 0) = x;
        s.X(i, 1) = y;
        s.y(i) = (x + nx) * (y + ny) >= 0 ? 1 : 0;
    }
    return s;
}

Samples make_gauss(Index n, double noise, Rng& rng) {
    // Playground: variance linear in noise, 0.5 at noise 0 and 4 at noise 0.5.
    const double stddev = std::sqrt(0.5 + 7.0 * noise);
    Samples s = two_class_samples(n);
    for (Index i = 0; i < n; ++i) {
        const bool positive = i < (n + 1) / 2;
        const double c = positive ? 2.0 : -2.0;
        s.X(i, 0) = rng.normal(c, stddev);
        s.X(i, 1) = rng.normal(c, stddev);
        s.y(i) = positive ? 1 : 0;
    }
    return s;
}

Samples make_spiral(Index n, double noise, Rng& rng) {
    // Playground: arm i of m points, r = 5 j/m, t = 1.75 · 2π j/m + Δt, Δt = 0 (class 1) or π.
    Samples s = two_class_samples(n);
    const Index m1 = (n + 1) / 2;
    for (Index i = 0; i < n; ++i) {
        const bool positive = i < m1;
        const Index m = positive ? m1 : n - m1;
        const double j = static_cast<double>(positive ? i : i - m1);
        const double r = j / static_cast<double>(m) * 5.0;
        const double t = 1.75 * j / static_cast<double>(m) * 2.0 * kPi + (positive ? 0.0 : kPi);
        s.X(i, 0) = r * std::sin(t) + rng.uniform(-1.0, 1.0) * noise;
        s.X(i, 1) = r * std::cos(t) + rng.uniform(-1.0, 1.0) * noise;
        s.y(i) = positive ? 1 : 0;
    }
    return s;
}

Samples make_moons(Index n, double noise, Rng& rng) {
    // scikit-learn: outer moon (cos t, sin t), inner moon (1 − cos t, 1/2 − sin t), t ∈ [0, π],
    // Gaussian noise of std `noise`; then (p − (1/2, 1/4)) · 2.5 to fill about [−4, 4] × [−3, 3].
    Samples s = two_class_samples(n);
    const double scale = 2.5;
    for (Index i = 0; i < n; ++i) {
        const bool outer = i < (n + 1) / 2;
        const double t = rng.uniform(0.0, kPi);
        double x = outer ? std::cos(t) : 1.0 - std::cos(t);
        double y = outer ? std::sin(t) : 0.5 - std::sin(t);
        x += rng.normal() * noise;
        y += rng.normal() * noise;
        s.X(i, 0) = (x - 0.5) * scale;
        s.X(i, 1) = (y - 0.25) * scale;
        s.y(i) = outer ? 0 : 1;
    }
    return s;
}

Samples make_synthetic(DatasetKind kind, Index n, double noise, std::uint64_t seed) {
    if (!is_synthetic_2d(kind))
        throw std::invalid_argument(std::string(to_string(kind)) + " is not a 2D synthetic data set");
    if (n < 2) throw std::invalid_argument("a synthetic data set needs at least 2 points");
    if (!(noise >= 0.0 && noise <= 1.0)) throw std::invalid_argument("noise must lie in [0, 1]");
    Rng rng(seed);
    switch (kind) {
        case DatasetKind::Circle: return make_circle(n, noise, rng);
        case DatasetKind::Xor: return make_xor(n, noise, rng);
        case DatasetKind::Gauss: return make_gauss(n, noise, rng);
        case DatasetKind::Spiral: return make_spiral(n, noise, rng);
        default: return make_moons(n, noise, rng);
    }
}

// [SECTION] Files (zlib) and the CSV parser --------------------------------------------------

std::string read_text_file(const std::string& path) {
    // Regular files only, inside the read scope (base/data_files.hpp: checked on the file
    // actually opened, at every read), of at most kMaxDataBytes, compressed and decompressed (a
    // gzip bomb stops at the limit).
    int fd = -1;
    try {
        fd = open_data_file(path);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    struct stat st {};
    const int stat_error = ::fstat(fd, &st) == 0 ? 0 : errno;
    const auto refuse = [&](const std::string& why) {
        ::close(fd);
        throw InputError("cannot read " + path + ": " + why);
    };
    if (stat_error != 0) refuse(std::strerror(stat_error));
    const std::string limit = describe_size(kMaxDataBytes);
    if (static_cast<std::size_t>(st.st_size) > kMaxDataBytes)
        refuse("it is " + describe_size(static_cast<std::size_t>(st.st_size)) + ", more than the limit of " + limit);
    // gzdopen reads gzip files decompressed and any other file as it is; it owns fd from here.
    gzFile file = gzdopen(fd, "rb");
    if (!file) refuse("out of memory");
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const int got = gzread(file, buffer, sizeof buffer);
        if (got < 0) {
            int code = 0;
            const std::string reason = gzerror(file, &code);
            gzclose(file);
            throw InputError("cannot read " + path + ": " + (code == Z_ERRNO ? std::strerror(errno) : reason));
        }
        if (got == 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > kMaxDataBytes) {
            gzclose(file);
            throw InputError("cannot read " + path + ": it holds more than " + limit +
                             " of text (decompressed), more than the limit");
        }
    }
    gzclose(file);
    return text;
}

namespace {

constexpr int kMaxClasses = 100;
constexpr double kMaxLabel = 1e15;   // |label|: every integer up to here is exact in a double

// One cell without its surrounding spaces and one pair of double quotes.
std::string_view cell_text(std::string_view raw) {
    std::string_view c = trim_spaces(raw);
    if (c.size() >= 2 && c.front() == '"' && c.back() == '"') c = trim_spaces(c.substr(1, c.size() - 2));
    return c;
}

std::vector<std::string_view> split_cells(std::string_view line, char delimiter) {
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = line.find(delimiter, start);
        cells.push_back(cell_text(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return cells;
}

enum class CellKind { Number, Empty, NotANumber, NotFinite };

// For a decimal that from_chars found out of range (std::from_chars leaves the value alone
// then): whether it is too large rather than too small, from its decimal exponent, i.e. the
// position of its first non-zero digit plus the written exponent.
bool overflows(std::string_view text) {
    if (!text.empty() && text.front() == '-') text.remove_prefix(1);
    const std::size_t e = text.find_first_of("eE");
    const std::string_view mantissa = text.substr(0, e);
    long long exponent = 0;
    if (e != std::string_view::npos) {
        const std::string_view digits = text.substr(e + 1);
        const auto [ptr, ec] = std::from_chars(digits.data() + (digits.substr(0, 1) == "+" ? 1 : 0),
                                               digits.data() + digits.size(), exponent);
        if (ec == std::errc::result_out_of_range) return digits.substr(0, 1) != "-";
        (void)ptr;
    }
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_of("123456789");
    if (first == std::string_view::npos) return false;  // zero
    const long long order = first < point ? static_cast<long long>(point - first)
                                          : -static_cast<long long>(first - point - 1);
    return exponent > -order;   // order + exponent > 0; |order| ≤ the cell's length, so -order cannot overflow
}

// Locale-independent: std::from_chars, with a leading '+' allowed; the whole cell must parse.
CellKind parse_cell(std::string_view c, double& value) {
    if (c.empty()) return CellKind::Empty;
    std::string_view digits = c;
    if (digits.front() == '+') {
        digits.remove_prefix(1);
        if (digits.empty() || digits.front() == '+' || digits.front() == '-') return CellKind::NotANumber;
    }
    const char* end = digits.data() + digits.size();
    const auto [ptr, ec] = parse_double(digits.data(), end, value);
    if (ptr != end) return CellKind::NotANumber;
    if (ec == std::errc::result_out_of_range) {
        // Underflow to 0 is harmless; overflow is not.
        if (overflows(digits)) return CellKind::NotFinite;
        value = 0.0;
        return CellKind::Number;
    }
    if (ec != std::errc()) return CellKind::NotANumber;
    if (!std::isfinite(value)) return CellKind::NotFinite;
    return CellKind::Number;
}

std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Physical lines (1-based numbers for messages), blank ones skipped.
struct CsvLine {
    std::size_t number;
    std::string_view text;
};

std::vector<CsvLine> csv_lines(std::string_view text) {
    std::vector<CsvLine> lines;
    std::size_t start = 0, number = 1;
    while (start <= text.size()) {
        std::size_t at = text.find('\n', start);
        if (at == std::string_view::npos) at = text.size();
        const std::string_view line = text.substr(start, at - start);
        if (!trim_spaces(line).empty()) lines.push_back({number, line});
        start = at + 1;
        ++number;
    }
    return lines;
}

// The cells of a header line: a first line of two or more cells without a single number; else none.
std::vector<std::string> csv_header_cells(std::string_view first, char delimiter) {
    const std::vector<std::string_view> cells = split_cells(first, delimiter);
    bool any_number = false;
    for (std::string_view c : cells) {
        double v;
        const CellKind k = parse_cell(c, v);
        any_number = any_number || k == CellKind::Number || k == CellKind::NotFinite;
    }
    if (any_number || cells.size() < 2) return {};
    return std::vector<std::string>(cells.begin(), cells.end());
}

}  // namespace

Samples parse_csv(std::string_view text, std::string_view source) {
    const std::string src(source);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);   // a UTF-8 byte-order mark (Excel writes one)
    const std::vector<CsvLine> lines = csv_lines(text);
    if (lines.empty()) throw InputError(src + " is empty: expected rows of numbers, each ending with an integer class label");

    const std::string_view first = lines.front().text;
    const char delimiter = first.find(',') != std::string_view::npos   ? ','
                           : first.find(';') != std::string_view::npos ? ';'
                           : first.find('\t') != std::string_view::npos ? '\t'
                                                                        : ',';
    const auto where = [&](std::size_t line, std::size_t column) {
        return src + " line " + std::to_string(line) + ", column " + std::to_string(column);
    };

    const std::vector<std::string> header = csv_header_cells(first, delimiter);
    const std::size_t begin = header.empty() ? 0 : 1;
    if (begin == lines.size()) throw InputError(src + " has a header line but no data rows");

    const std::size_t rows = lines.size() - begin;
    std::size_t columns = 0, columns_line = 0;
    Mat X;
    std::vector<long long> raw_labels(rows);
    std::vector<double> cells_value;
    for (std::size_t r = 0; r < rows; ++r) {
        const CsvLine& line = lines[begin + r];
        const std::vector<std::string_view> cells = split_cells(line.text, delimiter);
        if (r == 0) {
            if (cells.size() < 2)
                throw InputError(src + " line " + std::to_string(line.number) + " has " + plural(cells.size(), "column") +
                                 ": need at least one feature and a label");
            if (!header.empty() && header.size() != cells.size())
                throw InputError(src + " line " + std::to_string(line.number) + " has " + plural(cells.size(), "column") +
                                 ", the header (line " + std::to_string(lines.front().number) + ") has " +
                                 std::to_string(header.size()));
            columns = cells.size();
            columns_line = line.number;
            X.resize(static_cast<Index>(rows), static_cast<Index>(columns - 1));
        } else if (cells.size() != columns) {
            throw InputError(src + " line " + std::to_string(line.number) + " has " + plural(cells.size(), "column") +
                             ", line " + std::to_string(columns_line) + " has " + std::to_string(columns));
        }
        for (std::size_t c = 0; c < columns; ++c) {
            double v = 0.0;
            switch (parse_cell(cells[c], v)) {
                case CellKind::Empty: throw InputError(where(line.number, c + 1) + " is empty");
                case CellKind::NotANumber: throw InputError(where(line.number, c + 1) + " is not a number");
                case CellKind::NotFinite: throw InputError(where(line.number, c + 1) + " is not a finite number");
                case CellKind::Number: break;
            }
            if (c + 1 < columns) {
                X(static_cast<Index>(r), static_cast<Index>(c)) = v;
            } else {
                if (v != std::floor(v))
                    throw InputError(where(line.number, c + 1) + ": the label is not an integer");
                if (std::abs(v) > kMaxLabel)
                    throw InputError(where(line.number, c + 1) +
                                     ": the label is out of range: labels are integers from -10^15 to 10^15");
                raw_labels[r] = static_cast<long long>(v);
            }
        }
    }

    // Labels → class indices in increasing order of value.
    std::map<long long, int> classes;
    for (long long l : raw_labels) classes.emplace(l, 0);
    if (classes.size() < 2)
        throw InputError(src + ": every row has label " + std::to_string(raw_labels.front()) +
                         "; need at least 2 classes");
    if (classes.size() > static_cast<std::size_t>(kMaxClasses))
        throw InputError(src + ": the label column has " + std::to_string(classes.size()) +
                         " distinct values; at most " + std::to_string(kMaxClasses) + " classes");
    Samples s;
    s.X = std::move(X);
    s.classes = static_cast<int>(classes.size());
    int next = 0;
    for (auto& [value, index] : classes) {
        index = next++;
        s.class_names.push_back(std::to_string(value));
    }
    s.y.resize(static_cast<Index>(rows));
    for (std::size_t r = 0; r < rows; ++r) s.y(static_cast<Index>(r)) = classes.at(raw_labels[r]);
    if (!header.empty()) {
        s.feature_names.assign(header.begin(), header.end() - 1);
    } else {
        for (Index j = 0; j < s.X.cols(); ++j) s.feature_names.push_back("x" + std::to_string(j + 1));
    }
    return s;
}

Samples load_csv(const std::string& path) { return parse_csv(read_text_file(path), path); }

std::string shipped_assets_dir() {
    const char* dir = std::getenv("NORMLAB_ASSETS_DIR");
    return dir && *dir ? dir : NORMLAB_SOURCE_ASSETS_DIR;
}

std::string default_digits_path() { return shipped_assets_dir() + "/digits.csv.gz"; }

Samples load_digits(const std::string& path) {
    Samples s = load_csv(path);
    if (s.X.cols() != 64 || s.classes != 10)
        throw InputError(path + " is not the digits data set: expected 64 features and 10 classes, found " +
                         std::to_string(s.X.cols()) + " and " + std::to_string(s.classes));
    for (Index j = 0; j < 64; ++j) s.feature_names[static_cast<std::size_t>(j)] =
        "px" + std::to_string(j / 8) + std::to_string(j % 8);
    return s;
}

// [SECTION] Split & scale -------------------------------------------------------------------

Mat Scaler::apply(const Mat& raw) const {
    // (x − mean) / scale per feature (column), broadcast over cases.
    return (raw.rowwise() - mean.transpose()).array().rowwise() / scale.transpose().array();
}

Dataset split_dataset(const Samples& samples, double train_ratio, std::uint64_t seed, bool standardize,
                      std::string name, DatasetKind kind) {
    if (!(train_ratio > 0.0 && train_ratio < 1.0)) throw std::invalid_argument("train_ratio must lie in (0, 1)");
    const Index N = samples.X.rows(), d = samples.X.cols();
    if (samples.y.size() != N) throw std::invalid_argument("samples: X and y differ in length");
    Rng rng(seed);

    // Stratified: each class's cases shuffled, the first round(n_c · ratio) to training.
    std::vector<std::vector<Index>> by_class(static_cast<std::size_t>(samples.classes));
    for (Index i = 0; i < N; ++i) {
        const int c = samples.y(i);
        if (c < 0 || c >= samples.classes) throw std::invalid_argument("samples: label out of range");
        by_class[static_cast<std::size_t>(c)].push_back(i);
    }
    std::vector<Index> train, test;
    for (std::vector<Index>& cases : by_class) {
        if (cases.empty()) continue;
        rng.shuffle(cases);
        const Index nc = static_cast<Index>(cases.size());
        Index k = static_cast<Index>(std::llround(static_cast<double>(nc) * train_ratio));
        k = std::clamp<Index>(k, 1, std::max<Index>(1, nc - 1));
        train.insert(train.end(), cases.begin(), cases.begin() + k);
        test.insert(test.end(), cases.begin() + k, cases.end());
    }
    if (test.empty()) throw std::invalid_argument("the split leaves no test cases");
    rng.shuffle(train);
    rng.shuffle(test);

    Dataset ds;
    ds.name = std::move(name);
    ds.kind = kind;
    ds.classes = samples.classes;
    ds.class_names = samples.class_names;
    ds.feature_names = samples.feature_names;
    const auto gather = [&](const std::vector<Index>& idx, Mat& X, Labels& y) {
        X.resize(static_cast<Index>(idx.size()), d);
        y.resize(static_cast<Index>(idx.size()));
        for (std::size_t r = 0; r < idx.size(); ++r) {
            X.row(static_cast<Index>(r)) = samples.X.row(idx[r]);
            y(static_cast<Index>(r)) = samples.y(idx[r]);
        }
    };
    gather(train, ds.train_raw, ds.train_y);
    gather(test, ds.test_raw, ds.test_y);

    ds.scaler.mean = Vec::Zero(d);
    ds.scaler.scale = Vec::Ones(d);
    if (standardize) {
        for (Index j = 0; j < d; ++j) {
            // Mean and biased std of feature j over the training cases, in units of a power of
            // two s ≈ max|x| (exact, so ordinary data give the plain formulas' bits): squares of
            // 1e300 would overflow and those of 1e-320 underflow to 0. A feature whose spread is
            // below 1e-12 of its magnitude (rounding noise, or none: a constant) keeps scale 1.
            const double peak = ds.train_raw.col(j).cwiseAbs().maxCoeff();
            if (peak == 0.0) continue;
            const double s = std::ldexp(1.0, std::ilogb(peak));
            const Eigen::ArrayXd u = ds.train_raw.col(j).array() / s;
            const double mean_u = u.mean();
            const double sd_u = std::sqrt((u - mean_u).square().mean());
            ds.scaler.mean(j) = s * mean_u;
            if (sd_u > 1e-12 * (peak / s)) ds.scaler.scale(j) = s * sd_u;
        }
    }
    ds.train_x = ds.scaler.apply(ds.train_raw);
    ds.test_x = ds.scaler.apply(ds.test_raw);

    if (d >= 2) {
        const auto lo = ds.train_raw.leftCols(2).colwise().minCoeff().cwiseMin(ds.test_raw.leftCols(2).colwise().minCoeff());
        const auto hi = ds.train_raw.leftCols(2).colwise().maxCoeff().cwiseMax(ds.test_raw.leftCols(2).colwise().maxCoeff());
        const double px = std::max(0.05 * (hi(0) - lo(0)), 1e-6), py = std::max(0.05 * (hi(1) - lo(1)), 1e-6);
        ds.box = {lo(0) - px, hi(0) + px, lo(1) - py, hi(1) + py};
    }
    return ds;
}

DataSpec default_data_spec(DatasetKind kind, std::uint64_t seed) {
    DataSpec spec;
    spec.kind = kind;
    spec.train_ratio = is_synthetic_2d(kind) ? 0.5 : 0.8;
    spec.seed = seed;
    return spec;
}

Dataset make_dataset(const DataSpec& spec) {
    Samples samples;
    std::string name(to_string(spec.kind));
    if (is_synthetic_2d(spec.kind)) {
        samples = make_synthetic(spec.kind, spec.samples, spec.noise, derive_seed(spec.seed, 0));
    } else if (spec.kind == DatasetKind::Digits) {
        samples = load_digits(spec.path.empty() ? default_digits_path() : spec.path);
    } else {
        samples = load_csv(spec.path);
        name = spec.path;
    }
    return split_dataset(samples, spec.train_ratio, derive_seed(spec.seed, 1), spec.standardize, std::move(name),
                         spec.kind);
}

}  // namespace normlab
