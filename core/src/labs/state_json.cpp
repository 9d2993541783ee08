// NormLab core: the JSON writers and SceneReader of state_json.hpp.
//
// [SECTION] Writing
// [SECTION] Reading — values with their paths
// [SECTION] Reading — choices and sets of names
#include "normlab/labs/state_json.hpp"

#include "normlab/base/json_read.hpp"

#include <cmath>
#include <limits>

namespace normlab {

using nlohmann::json;

namespace {

std::string names_list(const std::string_view* names, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + std::string(names[i]);
    return out;
}

}  // namespace

// [SECTION] Writing -------------------------------------------------------------------------

json vec_to_json(const Vec& v) {
    json out = json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
    return out;
}

json mat_to_json(const Mat& m) {
    json out = json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) out.push_back(vec_to_json(m.row(r).transpose()));
    return out;
}

// [SECTION] Reading — values with their paths ------------------------------------------------

SceneReader::SceneReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) throw InputError(path_ + " is not an object (got " + describe_json(object_) + ")");
}

std::string SceneReader::path_of(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool SceneReader::has(std::string_view key) const { return object_.contains(std::string(key)); }

const json* SceneReader::get(std::string_view key) {
    const auto it = object_.find(std::string(key));
    if (it == object_.end()) return nullptr;
    read_.emplace(key);
    return &*it;
}

void SceneReader::fail(std::string_view key, const std::string& what) const {
    throw InputError(path_of(key) + " " + what);
}

bool SceneReader::read(std::string_view key, double& out) {
    const json* v = get(key);
    if (v == nullptr) return false;
    out = read_number(*v, path_of(key));
    return true;
}

bool SceneReader::read(std::string_view key, double& out, const NumberRule& rule) {
    double v = 0.0;
    if (!read(key, v)) return false;
    if (std::string problem = number_problem(path_of(key), v, rule); !problem.empty()) throw InputError(problem);
    out = v;
    return true;
}

void SceneReader::check_entries(std::string_view key, const Mat& values, const NumberRule& rule) const {
    for (Eigen::Index i = 0; i < values.rows(); ++i) {
        for (Eigen::Index j = 0; j < values.cols(); ++j) {
            if (rule_accepts(rule, values(i, j))) continue;
            std::string name = path_of(key) + "[" + std::to_string(i) + "]";
            if (values.cols() > 1) name += "[" + std::to_string(j) + "]";
            throw InputError(number_problem(name, values(i, j), rule));
        }
    }
}

bool SceneReader::read(std::string_view key, bool& out) {
    const json* v = get(key);
    if (v == nullptr) return false;
    if (!v->is_boolean()) fail(key, "is not true or false (got " + describe_json(*v) + ")");
    out = v->get<bool>();
    return true;
}

bool SceneReader::read(std::string_view key, int& out, int lo, int hi) {
    const json* v = get(key);
    if (v == nullptr) return false;
    const double d = read_number(*v, path_of(key));
    const NumberRule rule{static_cast<double>(lo), static_cast<double>(hi), false, true};
    if (std::string problem = number_problem(path_of(key), d, rule); !problem.empty()) throw InputError(problem);
    out = static_cast<int>(d);
    return true;
}

bool SceneReader::read(std::string_view key, std::uint64_t& out) {
    const json* v = get(key);
    if (v == nullptr) return false;
    if (v->is_number_unsigned()) {
        out = v->get<std::uint64_t>();
        return true;
    }
    if (v->is_number_integer() && v->get<std::int64_t>() >= 0) {
        out = static_cast<std::uint64_t>(v->get<std::int64_t>());
        return true;
    }
    if (v->is_number_float()) {   // 3.0, or 1e3, as people write numbers
        const double d = v->get<double>();
        if (std::isfinite(d) && d >= 0.0 && d == std::floor(d) && d <= 9007199254740992.0) {
            out = static_cast<std::uint64_t>(d);
            return true;
        }
    }
    fail(key, "is not a whole number ≥ 0 (got " + describe_json(*v) + ")");
}

bool SceneReader::read(std::string_view key, std::string& out) {
    const json* v = get(key);
    if (v == nullptr) return false;
    out = read_string(*v, path_of(key));
    return true;
}

bool SceneReader::read(std::string_view key, Vec& out, bool allow_empty) {
    const json* v = get(key);
    if (v == nullptr) return false;
    if (allow_empty && v->is_array() && v->empty()) {
        out = Vec();
        return true;
    }
    out = read_vector(*v, path_of(key));
    return true;
}

bool SceneReader::read(std::string_view key, Mat& out) {
    const json* v = get(key);
    if (v == nullptr) return false;
    out = read_matrix(*v, path_of(key));
    return true;
}

bool SceneReader::read(std::string_view key, EpsMode& out) {
    return read_choice(key, out, std::array<std::string_view, 2>{to_string(EpsMode::InsideSqrt), to_string(EpsMode::AddToRms)},
                       std::array<EpsMode, 2>{EpsMode::InsideSqrt, EpsMode::AddToRms});
}

std::vector<std::string> SceneReader::unread_keys() const {
    std::vector<std::string> out;
    for (const auto& item : object_.items())
        if (read_.find(item.key()) == read_.end()) out.push_back(path_of(item.key()));
    return out;
}

// [SECTION] Reading — choices and sets of names ---------------------------------------------

std::size_t SceneReader::choice_index(const json& v, const std::string& path, const std::string_view* names,
                                      std::size_t n) {
    const std::string name = read_string(v, path);
    for (std::size_t i = 0; i < n; ++i)
        if (names[i] == name) return i;
    throw InputError(path + " is " + quote_for_message(name) + ", expected one of: " + names_list(names, n));
}

std::vector<std::size_t> SceneReader::flag_indices(const json& v, const std::string& path,
                                                   const std::string_view* names, std::size_t n) {
    if (!v.is_array()) throw InputError(path + " is not a list of names (got " + describe_json(v) + ")");
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const std::string item = path + "[" + std::to_string(k) + "]";
        const std::size_t i = choice_index(v[k], item, names, n);
        for (std::size_t j : out)
            if (j == i) throw InputError(item + " repeats " + quote_for_message(names[i]));
        out.push_back(i);
    }
    return out;
}

}  // namespace normlab
