// Names the runtime gives node-local files and directories
// (docs/formats/prefix.md): filemap_<rank>.scr in a control directory,
// scr.dataset.<id> in a cache directory and in <prefix>/.scr.
#pragma once

#include <string>

namespace scr::tools::inspect {

// The rank of "filemap_<rank>.scr", else -1.
int filemap_rank(const std::string& name);
// The id of "scr.dataset.<id>", else -1.
int dataset_dir_id(const std::string& name);

}  // namespace scr::tools::inspect
