#include "mpi/error.hpp"

#include <mpi.h>

#include <string>

namespace scr::mpi {

Status status_of(int code, const char* call) {
  if (code == MPI_SUCCESS) return Status::Ok();
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) len = 0;
  std::string what = len > 0 ? std::string(text, static_cast<size_t>(len))
                             : "error code " + std::to_string(code);
  return Error(Errc::mpi_error, std::string(call) + ": " + what);
}

}  // namespace scr::mpi
