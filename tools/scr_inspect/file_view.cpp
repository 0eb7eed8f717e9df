// A single file: the metadata tree at its start (a redundancy file's header,
// a filemap, an index, ...). Every file is checked (magic, version,
// checksums, length) before anything of it is printed.
#include "io/files.hpp"
#include "kvtree/codec.hpp"
#include "tools/common/kv_json.hpp"
#include "tools/scr_inspect/views.hpp"

namespace scr::tools::inspect {

Report inspect_file(io::Env& env, const std::string& path) {
  Report r;
  auto read = [&]() -> Status {
    SCR_ASSIGN_OR_RETURN(auto file, env.open(path, io::OpenMode::read));
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
