#include "redset/coded_layout.hpp"

#include "redset/headers.hpp"

namespace scr::redset {

kv::Tree coded_header(const SetShape& shape, int member, std::map<int, kv::Tree> entries,
                      uint64_t chunk) {
  kv::Tree h = header_with(shape, member, std::move(entries));
  h.set_uint("CHUNK", chunk);
  return h;
}

HeaderCheck chunk_check(int checks) {
  return [checks](const Header& h, uint64_t file_size) -> Status {
    auto chunk = h.tree.get_uint("CHUNK");
    if (!chunk) return Error(Errc::corrupt, "header lacks CHUNK");
    uint64_t room = file_size >= h.data_offset ? file_size - h.data_offset : 0;
    if (*chunk > room / static_cast<uint64_t>(checks))
      return Error(Errc::corrupt, "check data is truncated: " + std::to_string(room) +
                                      " bytes for " + std::to_string(checks) + " chunks of " +
                                      std::to_string(*chunk));
    return Status::Ok();
  };
}

}  // namespace scr::redset
