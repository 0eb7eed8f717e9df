#include "tools/scr_inspect/redundancy_words.hpp"

#include "kvtree/file_list.hpp"

namespace scr::tools::inspect {
namespace {

// "1,3" from MEMBERS/<i> = world rank (or GROUP/RANK/<i>).
std::string rank_list(const kv::Tree* members) {
  std::string out;
  if (!members) return out;
  for (int64_t i : members->int_keys())
    out += (out.empty() ? "" : ",") + members->value_or(std::to_string(i), "?");
  return out;
}

// "1 of 2" from a 0-based index and a count; "?" for what is missing.
std::string one_of(const kv::Tree& t, const char* index, const char* count) {
  std::string i = t.has(index) ? std::to_string(t.int_or(index, 0) + 1) : "?";
  return i + " of " + t.value_or(count, "?");
}

}  // namespace

std::string describe_reddesc(const kv::Tree& desc) {
  std::string out = desc.value_or("TYPE", "unknown scheme");
  if (desc.int_or("ENABLED", 1) == 0) return out + " (disabled)";
  out += ", set " + one_of(desc, "GROUP", "GROUPS") + ", member " + one_of(desc, "RANK", "RANKS");
  if (std::string members = rank_list(desc.get("MEMBERS")); !members.empty())
    out += ", world ranks " + members;
  return out;
}

std::vector<std::string> describe_header(const kv::Tree& header, uint64_t data_bytes) {
  std::string own = header.value_or("RANK", "?");
  const kv::Tree* own_entry = header.at({"DESC", own});
  std::string head = own_entry && own_entry->get("DESC") ? describe_reddesc(*own_entry->get("DESC"))
                                                         : "no descriptor for set rank " + own;
  if (header.has("CHUNK")) head += "; chunk " + header.value_or("CHUNK", "") + " B";
  head += "; " + std::to_string(data_bytes) + " B of data";
  std::vector<std::string> out{head};
  const kv::Tree* entries = header.get("DESC");
  if (!entries) return out;
  const kv::Tree* world = header.at({"GROUP", "RANK"});
  for (int64_t member : entries->int_keys()) {
    std::string key = std::to_string(member);
    std::string line = "member " + std::to_string(member + 1);
    if (world && world->has(key)) line += " (world rank " + world->value_or(key, "?") + ")";
    std::string files;
    auto list = kv::get_file_list(*entries->get(key), "FILELIST");
    if (!list) files = "unreadable file list (" + list.status().message() + ")";
    for (const auto& f : list ? *list : std::vector<kv::FileRecord>{})
      files += (files.empty() ? "" : ", ") + f.name + " " + std::to_string(f.size) + " B";
    out.push_back(line + ": " + (files.empty() ? "no files" : files));
  }
  return out;
}

}  // namespace scr::tools::inspect
