// The one piece of process-wide state behind both public APIs: the
// configuration gathered by SCR_Config before SCR_Init, and the Runtime
// between SCR_Init and SCR_Finalize. The C API (scr_c.cpp) turns Status into
// return codes and the C++ API (scr_cpp.cpp) into exceptions; nothing else
// differs between them.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/status.hpp"
#include "mpi/comm.hpp"
#include "runtime/runtime.hpp"

namespace scr::api {

// SCR_Config: set, unset or query (see include/scr.h).
Result<std::optional<std::string>> config(const std::string& text);
// C's SCR_Config returns NULL whether a set worked or not: a set it refused
// before SCR_Init (`why`) makes the next SCR_Init fail, naming it, as a bad
// value in the environment or a config file does, instead of a job running
// on settings nobody asked for. Queries and calls after SCR_Init are not
// held against SCR_Init.
void refuse_at_init(const std::string& text, const Status& why);
// SCR_Init: a session over every process of the launch (mpi::world()).
Status init();
// SCRPP_Init_comm: a session over the processes of `comm` only (a duplicate
// of the application's, made by api/init_comm.cpp); every collective of
// SCR++ runs there and processes outside it never call SCR++.
Status init(mpi::Comm comm);
Status finalize();
// The runtime, or Errc::bad_state naming `call` when SCR is not initialized
// (or is disabled).
Result<rt::Runtime*> runtime(const char* call);
// SCR_Init found SCR_ENABLE=0: every call until SCR_Finalize is a no-op that
// succeeds, as in SCR.
bool disabled();

// Print a failed status on stderr, naming the API call.
void report(const char* call, const Status& st);
// The line report() last printed (or, on a rank that leaves SCR_Init's
// agreed error to rank 0, would have printed) for this process; "" before
// any failure.
std::string last_error();

// An exception is unwinding through a phase object or the scr::Library of
// the C++ API on this process (`call` is what the destructor would have
// called). The other processes may be waiting in a collective this one will
// never reach, or in one of their own, so SCR++ enters none: it says so once
// on stderr and stops the session on this process. Every later call except
// SCR_Finalize fails with Errc::bad_state without communicating, so the
// application can end the job (MPI_Abort) rather than hang; SCR_Finalize
// ends the session here without a collective. What was written is left as a
// process killed at this point leaves it: the next run discards the open
// dataset and restarts from the last complete checkpoint. Never throws.
void abandon(const char* call) noexcept;
// abandon() stopped the session on this process and SCR_Finalize has not
// ended it yet.
bool abandoned();

}  // namespace scr::api
