// The views scr_inspect has of SCR++ files and directories
// (docs/formats/prefix.md):
//   a metadata file or redundancy file: its tree in SCR's text layout;
//   a prefix: the index table and each flushed dataset's summary;
//   a control directory: every filemap_<rank>.scr in words;
//   a cache directory: each dataset directory's files and the header of
//   each redundancy file.
// inspect_directory recognises which of the last three a directory is (it
// may be both a control and a cache directory when the two bases are the
// same) and, for a base directory such as SCR_CACHE_BASE, finds them below.
#pragma once

#include <string>

#include "io/env.hpp"
#include "tools/scr_inspect/report.hpp"

namespace scr::tools::inspect {

Report inspect_file(io::Env& env, const std::string& path);
Report inspect_directory(io::Env& env, const std::string& dir);

Report inspect_prefix(io::Env& env, const std::string& prefix);
Report inspect_control(io::Env& env, const std::string& dir);
Report inspect_cache(io::Env& env, const std::string& dir);

}  // namespace scr::tools::inspect
