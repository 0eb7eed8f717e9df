// A single file: the metadata tree at its start (a redundancy file's header,
// a filemap, a summary, ...), or a whole file shared with SCR 3.1. Every file is checked (magic, version,
// checksums, length) before anything of it is printed.
#include "io/files.hpp"
#include "kvtree/codec.hpp"
#include "kvtree/veloc_file.hpp"
#include "tools/common/kv_json.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {

Report inspect_file(io::Env& env, const std::string& path) {
  Report r;
  // The files shared with SCR 3.1 (index, summary.scr, rank2file, halt) are
  // KVTree files (docs/formats/scr31.md): whole trees, nothing after them.
  auto read_shared = [&]() -> Status {
    SCR_ASSIGN_OR_RETURN(kv::Tree tree, io::read_any_tree(env, path));
    r.text = "# SCR 3.1's KVTree format\n" + kv::to_text(tree);
    r.json.set("path", path).set("format", "kvtree").set("tree", tree_to_json(tree)).set("data_bytes", 0);
    return Status::Ok();
  };
  auto read = [&]() -> Status {
    SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
    std::byte magic[4];
    if (file->pread_exact(magic, sizeof magic, 0).ok() && kv::veloc::looks_like(magic)) return read_shared();
    uint64_t end = 0;
    SCR_ASSIGN_OR_RETURN(kv::Tree tree, io::read_tree_at(*file, 0, &end));
    SCR_ASSIGN_OR_RETURN(uint64_t size, file->size());
    r.text = kv::to_text(tree);
    if (size > end)
      r.text += "# followed by " + std::to_string(size - end) + " bytes of data from offset " +
                std::to_string(end) + "\n";
    r.json.set("path", path).set("tree", tree_to_json(tree)).set("data_bytes", size - end);
    return Status::Ok();
  };
  if (Status st = read(); !st.ok()) r.problems.push_back(path + ": " + st.to_string());
  return r;
}

}  // namespace scr::tools::inspect
