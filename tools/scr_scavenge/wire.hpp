// How a node agent's answer travels back to the scavenge that started it:
// through the remote method's standard output (srun, pdsh, ssh and rsh
// agents all carry it; a shared file system may show a new file late), as
// the kvtree encoding (which carries its own CRC32) in hex, in short tagged
// lines, so that login banners, pdsh's "node: " prefixes and stray output
// cannot be taken for part of it, and a cut-off answer is detected.
#pragma once

#include <string>

#include "common/status.hpp"
#include "kvtree/tree.hpp"

namespace scr::tools::scavenge {

// The answer as lines to print.
std::string frame_answer(const kv::Tree& answer);

// The answer `node` printed among its output; Errc::corrupt when there is
// none, it is incomplete, or it does not decode (the message, for "host
// NODE ...", says which).
Result<kv::Tree> read_answer(const std::string& output, const std::string& node);

}  // namespace scr::tools::scavenge
