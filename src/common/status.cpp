#include "common/status.hpp"

namespace scr {

const char* errc_name(Errc code) {
  switch (code) {
    case Errc::ok: return "ok";
    case Errc::invalid_argument: return "invalid argument";
    case Errc::not_found: return "not found";
    case Errc::io_error: return "I/O error";
    case Errc::no_space: return "no space left";
    case Errc::corrupt: return "corrupt data";
    case Errc::bad_state: return "wrong state";
    case Errc::mpi_error: return "MPI error";
    case Errc::unsupported: return "unsupported";
    case Errc::unrecoverable: return "unrecoverable";
    case Errc::permission: return "permission";
  }
  return "unknown";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return std::string(errc_name(code_)) + ": " + message_;
}

}  // namespace scr
