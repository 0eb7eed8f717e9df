! scrf.h -- SCR++'s Fortran 77 interface, compatible with SCR 3.1.
!   INCLUDE 'scrf.h'    (fixed or free source form)
! Every call is a subroutine whose last argument is INTEGER IERROR,
! set to SCR_SUCCESS or another value; see docs/bindings.md.
! New code may prefer the typed module: USE SCR.
! SCR++ extension: SCRPP_INIT_COMM(COMM, IERROR) is SCR_INIT over the
! processes of the MPI communicator COMM only (an INTEGER handle).

! return codes
      INTEGER SCR_SUCCESS
      PARAMETER (SCR_SUCCESS=0)

! longest name or path, including the C terminator
      INTEGER SCR_MAX_FILENAME
      PARAMETER (SCR_MAX_FILENAME=1024)

! dataset flags for SCR_START_OUTPUT (add them)
      INTEGER SCR_FLAG_NONE
      PARAMETER (SCR_FLAG_NONE=0)
      INTEGER SCR_FLAG_CHECKPOINT
      PARAMETER (SCR_FLAG_CHECKPOINT=1)
      INTEGER SCR_FLAG_OUTPUT
      PARAMETER (SCR_FLAG_OUTPUT=2)
