! The Fortran 2008 interface of SCR++: USE SCR.
!
! The same subroutines and constants as scrf.h, with explicit interfaces so
! the compiler checks every argument. They are libscrf's C entry points
! (scrf.c) declared through BIND(C) -- directly, or for calls with strings
! through a module procedure passing the string lengths explicitly -- so
! both interfaces share one implementation of the string rules: names lose
! their trailing blanks on the way in, results are blank-padded on the way
! out, and a result longer than the caller's variable sets IERROR (the
! variable is left blank).
!
! The VALID argument of the SCR_COMPLETE_* calls may be INTEGER (as in
! scrf.h) or LOGICAL.
module scr
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
  use scr_regions
  implicit none
  private

  integer, parameter, public :: SCR_SUCCESS = 0
  integer, parameter, public :: SCR_MAX_FILENAME = 1024
  integer, parameter, public :: SCR_FLAG_NONE = 0
  integer, parameter, public :: SCR_FLAG_CHECKPOINT = 1
  integer, parameter, public :: SCR_FLAG_OUTPUT = 2

  public :: scr_init, scr_finalize, scr_config, scr_route_file
  ! SCR++ extension: SCR_INIT over an MPI communicator of the application's.
  public :: scrpp_init_comm
  public :: scr_have_restart, scr_start_restart, scr_complete_restart
  public :: scr_need_checkpoint, scr_start_checkpoint, scr_complete_checkpoint
  public :: scr_start_output, scr_complete_output, scr_should_exit
  public :: scr_current, scr_drop, scr_delete, scr_get_version
  ! SCR++ extensions: memory regions (scr_regions.f90).
  public :: scrpp_protect, scrpp_unprotect, scrpp_checkpoint, scrpp_write_regions
  public :: scrpp_restore, scrpp_read_regions, scrpp_region_info, scrpp_restore_from

  interface scr_complete_restart
    procedure c_complete_restart, complete_restart_logical
  end interface
  interface scr_complete_checkpoint
    procedure c_complete_checkpoint, complete_checkpoint_logical
  end interface
  interface scr_complete_output
    procedure c_complete_output, complete_output_logical
  end interface

  ! libscrf's entry points (scrf.c). Calls without strings are these
  ! interfaces themselves; the others get a module procedure below that
  ! passes the hidden lengths explicitly.
  interface
    subroutine scr_init(ierror) bind(C, name="scr_init_")
      import :: c_int
      integer(c_int), intent(out) :: ierror
    end subroutine
    ! COMM: an MPI communicator handle (INTEGER from `use mpi`, COMM%MPI_VAL
    ! from `use mpi_f08`); every later call is collective over it.
    subroutine scrpp_init_comm(comm, ierror) bind(C, name="scrpp_init_comm_")
      import :: c_int
      integer(c_int), intent(in) :: comm
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine scr_finalize(ierror) bind(C, name="scr_finalize_")
      import :: c_int
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine c_config(config, val, ierror, config_len, val_len) bind(C, name="scr_config_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: config(*)
      character(kind=c_char), intent(out) :: val(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: config_len, val_len
    end subroutine
    subroutine c_route_file(name, file, ierror, name_len, file_len) bind(C, name="scr_route_file_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      character(kind=c_char), intent(out) :: file(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len, file_len
    end subroutine
    subroutine c_have_restart(flag, name, ierror, name_len) bind(C, name="scr_have_restart_")
      import :: c_int, c_char, c_size_t
      integer(c_int), intent(out) :: flag
      character(kind=c_char), intent(out) :: name(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_start_restart(name, ierror, name_len) bind(C, name="scr_start_restart_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(out) :: name(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_complete_restart(valid, ierror) bind(C, name="scr_complete_restart_")
      import :: c_int
      integer(c_int), intent(in) :: valid
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine scr_need_checkpoint(flag, ierror) bind(C, name="scr_need_checkpoint_")
      import :: c_int
      integer(c_int), intent(out) :: flag, ierror
    end subroutine
    subroutine scr_start_checkpoint(ierror) bind(C, name="scr_start_checkpoint_")
      import :: c_int
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine c_complete_checkpoint(valid, ierror) bind(C, name="scr_complete_checkpoint_")
      import :: c_int
      integer(c_int), intent(in) :: valid
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine c_start_output(name, flags, ierror, name_len) bind(C, name="scr_start_output_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(in) :: flags
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_complete_output(valid, ierror) bind(C, name="scr_complete_output_")
      import :: c_int
      integer(c_int), intent(in) :: valid
      integer(c_int), intent(out) :: ierror
    end subroutine
    subroutine scr_should_exit(flag, ierror) bind(C, name="scr_should_exit_")
      import :: c_int
      integer(c_int), intent(out) :: flag, ierror
    end subroutine
    subroutine c_current(name, ierror, name_len) bind(C, name="scr_current_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_drop(name, ierror, name_len) bind(C, name="scr_drop_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_delete(name, ierror, name_len) bind(C, name="scr_delete_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: name_len
    end subroutine
    subroutine c_get_version(version, ierror, version_len) bind(C, name="scr_get_version_")
      import :: c_int, c_char, c_size_t
      character(kind=c_char), intent(out) :: version(*)
      integer(c_int), intent(out) :: ierror
      integer(c_size_t), value :: version_len
    end subroutine
  end interface

contains

  ! Set ("KEY=VALUE"), unset ("KEY=") or query ("KEY") a parameter; VAL gets
  ! a query's answer, blanks otherwise.
  subroutine scr_config(config, val, ierror)
    character(len=*), intent(in) :: config
    character(len=*), intent(out) :: val
    integer, intent(out) :: ierror
    call c_config(config, val, ierror, len(config, c_size_t), len(val, c_size_t))
  end subroutine

  subroutine scr_route_file(name, file, ierror)
    character(len=*), intent(in) :: name
    character(len=*), intent(out) :: file
    integer, intent(out) :: ierror
    call c_route_file(name, file, ierror, len(name, c_size_t), len(file, c_size_t))
  end subroutine

  subroutine scr_have_restart(flag, name, ierror)
    integer, intent(out) :: flag
    character(len=*), intent(out) :: name
    integer, intent(out) :: ierror
    call c_have_restart(flag, name, ierror, len(name, c_size_t))
  end subroutine

  subroutine scr_start_restart(name, ierror)
    character(len=*), intent(out) :: name
    integer, intent(out) :: ierror
    call c_start_restart(name, ierror, len(name, c_size_t))
  end subroutine

  subroutine complete_restart_logical(valid, ierror)
    logical, intent(in) :: valid
    integer, intent(out) :: ierror
    call c_complete_restart(merge(1, 0, valid), ierror)
  end subroutine

  subroutine complete_checkpoint_logical(valid, ierror)
    logical, intent(in) :: valid
    integer, intent(out) :: ierror
    call c_complete_checkpoint(merge(1, 0, valid), ierror)
  end subroutine

  subroutine scr_start_output(name, flags, ierror)
    character(len=*), intent(in) :: name
    integer, intent(in) :: flags
    integer, intent(out) :: ierror
    call c_start_output(name, flags, ierror, len(name, c_size_t))
  end subroutine

  subroutine complete_output_logical(valid, ierror)
    logical, intent(in) :: valid
    integer, intent(out) :: ierror
    call c_complete_output(merge(1, 0, valid), ierror)
  end subroutine

  subroutine scr_current(name, ierror)
    character(len=*), intent(in) :: name
    integer, intent(out) :: ierror
    call c_current(name, ierror, len(name, c_size_t))
  end subroutine

  subroutine scr_drop(name, ierror)
    character(len=*), intent(in) :: name
    integer, intent(out) :: ierror
    call c_drop(name, ierror, len(name, c_size_t))
  end subroutine

  subroutine scr_delete(name, ierror)
    character(len=*), intent(in) :: name
    integer, intent(out) :: ierror
    call c_delete(name, ierror, len(name, c_size_t))
  end subroutine

  subroutine scr_get_version(version, ierror)
    character(len=*), intent(out) :: version
    integer, intent(out) :: ierror
    call c_get_version(version, ierror, len(version, c_size_t))
  end subroutine

end module scr
