// Files the page downloads when first needed instead of packaging them (docs/ARCHITECTURE.md,
// "The web build"): Noto Sans CJK's subset and the translation catalogs. The desktop sets no
// fetcher: a missing file stays missing.
#pragma once

#include <string>

namespace normlab::ui {

// Brings `path` into the file system (true when it is there after); set once, before use.
using FileFetcher = bool (*)(const std::string& path);
void set_file_fetcher(FileFetcher fetch);

// Whether `path` exists; when it does not and a fetcher is set, asks it once per path.
bool fetch_if_missing(const std::string& path);

}  // namespace normlab::ui
