! heat_f90: the heat demo's solver (examples/heat/heat.c) in Fortran 2008,
! checkpointed through SCR++'s module interface (USE SCR).
!
!   heat_f90 [-n steps] [-c every] [-g rows cols] [--crash-at step] [--crash-rank r]
!
! The grid, the Jacobi step, the checkpoint files (an int32 header
! {step, local rows, cols, first row} then the rows as doubles) and the
! closing line
!   RESULT steps=<n> checksum=<hex>
! are byte for byte those of the C version, so both give the same checksum
! for the same arguments -- and can restart from each other's checkpoints.
! -c 0 asks SCR_NEED_CHECKPOINT each step; --crash-at kills rank
! --crash-rank (default 0) with SIGKILL after that step, as a node failure
! would.
program heat_f90
  use, intrinsic :: iso_c_binding, only: c_int
  use, intrinsic :: iso_fortran_env, only: int8, int32, int64, real64, error_unit
  use mpi_f08
  use scr
  implicit none

  interface
    function c_raise(sig) bind(C, name="raise") result(rc)
      import :: c_int
      integer(c_int), value :: sig
      integer(c_int) :: rc
    end function
  end interface

  integer :: steps = 60, every = 10, rows = 64, cols = 64, crash_at = -1, crash_rank = 0
  integer :: rank, ranks, local_rows, first_row, start, s, ierr, need, halt
  real(real64), allocatable, target :: grid_a(:, :), grid_b(:, :)
  real(real64), pointer :: cur(:, :), nxt(:, :), tmp(:, :)
  integer(int64) :: sum

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)
  call parse_arguments()
  if (mod(rows, ranks) /= 0) call die('grid rows must divide evenly among ranks')
  local_rows = rows / ranks
  first_row = rank * local_rows
  ! Columns first: a grid row is contiguous, as in the C version.
  allocate(grid_a(0:cols - 1, 0:local_rows + 1), grid_b(0:cols - 1, 0:local_rows + 1))
  cur => grid_a
  nxt => grid_b
  call init_grid(cur)
  nxt = cur

  call scr_init(ierr)
  if (ierr /= SCR_SUCCESS) call die('SCR_INIT failed')
  start = restart()
  if (start == 0) then
    call init_grid(cur)   ! a rejected checkpoint may have been read into the grid
    call say('no checkpoint found: starting from step 0')
  end if

  do s = start + 1, steps
    call step()
    need = 0
    if (every > 0) then
      if (mod(s, every) == 0) need = 1
    else
      call scr_need_checkpoint(need, ierr)
      if (ierr /= SCR_SUCCESS) call die('SCR_NEED_CHECKPOINT failed')
    end if
    if (need == 1) call checkpoint(s)
    ! The barrier lets rank 0 finish reporting this step before a SIGKILL
    ! elsewhere makes mpiexec kill it.
    if (s == crash_at) call MPI_Barrier(MPI_COMM_WORLD)
    if (s == crash_at .and. rank == crash_rank) then
      write (error_unit, '(a,i0,a,i0,a)') '[heat-f90] rank ', rank, ': simulating a failure at step ', s, ' (SIGKILL)'
      flush (error_unit)
      ierr = c_raise(9_c_int)
    end if
    call scr_should_exit(halt, ierr)
    if (ierr /= SCR_SUCCESS) call die('SCR_SHOULD_EXIT failed')
    if (halt == 1) then
      call say('SCR asks the job to stop (halt condition); exiting cleanly')
      exit
    end if
  end do

  sum = checksum()
  call scr_finalize(ierr)
  if (ierr /= SCR_SUCCESS) call die('SCR_FINALIZE failed')
  if (rank == 0) print '(a,i0,a,a)', 'RESULT steps=', steps, ' checksum=', hex16(sum)
  call MPI_Finalize()

contains

  subroutine parse_arguments()
    integer :: i, n
    character(len=64) :: arg
    n = command_argument_count()
    i = 1
    do while (i <= n)
      call get_command_argument(i, arg)
      select case (arg)
      case ('-n')
        steps = int_argument(i + 1)
      case ('-c')
        every = int_argument(i + 1)
      case ('-g')
        rows = int_argument(i + 1)
        cols = int_argument(i + 2)
        i = i + 1
      case ('--crash-at')
        crash_at = int_argument(i + 1)
      case ('--crash-rank')
        crash_rank = int_argument(i + 1)
      case default
        call die('unknown argument ' // trim(arg))
      end select
      i = i + 2
    end do
  end subroutine

  integer function int_argument(i)
    integer, intent(in) :: i
    character(len=64) :: arg
    integer :: ios
    call get_command_argument(i, arg)
    read (arg, *, iostat=ios) int_argument
    if (ios /= 0) call die('expected a number, got "' // trim(arg) // '"')
  end function

  subroutine say(text)
    character(len=*), intent(in) :: text
    if (rank == 0) then
      print '(a,a)', '[heat-f90] ', text
      flush (6)
    end if
  end subroutine

  subroutine die(what)
    character(len=*), intent(in) :: what
    write (error_unit, '(a,i0,a,a)') '[heat-f90] rank ', rank, ': ', what
    call MPI_Abort(MPI_COMM_WORLD, 2)
  end subroutine

  ! A hot spot in the middle of a cold plate.
  subroutine init_grid(g)
    real(real64), intent(out) :: g(0:, 0:)
    integer :: r, c, gr
    do r = 0, local_rows + 1
      gr = first_row + r - 1
      do c = 0, cols - 1
        g(c, r) = 0.0_real64
        if (gr >= rows / 3 .and. gr < 2 * rows / 3 .and. c >= cols / 3 .and. c < 2 * cols / 3) g(c, r) = 100.0_real64
      end do
    end do
  end subroutine

  subroutine exchange_halos()
    integer :: up, down
    up = merge(rank - 1, MPI_PROC_NULL, rank > 0)
    down = merge(rank + 1, MPI_PROC_NULL, rank < ranks - 1)
    call MPI_Sendrecv(cur(:, 1), cols, MPI_DOUBLE_PRECISION, up, 0, cur(:, local_rows + 1), cols, &
                      MPI_DOUBLE_PRECISION, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(cur(:, local_rows), cols, MPI_DOUBLE_PRECISION, down, 1, cur(:, 0), cols, &
                      MPI_DOUBLE_PRECISION, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  end subroutine

  ! One Jacobi step; the sum is formed in the C version's order so the
  ! results are bit-identical.
  subroutine step()
    integer :: r, c, gr
    call exchange_halos()
    do r = 1, local_rows
      gr = first_row + r - 1
      do c = 0, cols - 1
        if (gr == 0 .or. gr == rows - 1 .or. c == 0 .or. c == cols - 1) then
          nxt(c, r) = cur(c, r)
        else
          nxt(c, r) = 0.25_real64 * (cur(c, r - 1) + cur(c, r + 1) + cur(c - 1, r) + cur(c + 1, r))
        end if
      end do
    end do
    tmp => cur
    cur => nxt
    nxt => tmp
  end subroutine

  ! h * 1099511628211 (the 64-bit FNV prime, 2**40 + 435) modulo 2**64,
  ! computed on 32-bit halves so no signed integer ever overflows.
  pure function fnv_mul(h) result(p)
    integer(int64), intent(in) :: h
    integer(int64) :: p, lo, hi, a, p_hi
    integer(int64), parameter :: mask32 = int(z'FFFFFFFF', int64)
    lo = iand(h, mask32)
    hi = iand(ishft(h, -32), mask32)
    a = lo * 435_int64
    p_hi = iand(ishft(a, -32) + hi * 435_int64 + ishft(lo, 8), mask32)
    p = ior(ishft(p_hi, 32), iand(a, mask32))
  end function

  ! FNV-1a over the whole grid in row order, gathered at rank 0, as the C
  ! version computes it: the same for any number of ranks.
  integer(int64) function checksum()
    integer(int64), parameter :: basis = 1469598103934665603_int64
    real(real64), allocatable :: all(:)
    integer(int8), allocatable :: bytes(:)
    integer :: i
    allocate(all(merge(rows * cols, 1, rank == 0)))
    call MPI_Gather(cur(:, 1:local_rows), cols * local_rows, MPI_DOUBLE_PRECISION, all, &
                    cols * local_rows, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD)
    checksum = basis
    if (rank == 0) then
      bytes = transfer(all, [0_int8])
      do i = 1, size(bytes)
        checksum = fnv_mul(ieor(checksum, iand(int(bytes(i), int64), 255_int64)))
      end do
    end if
  end function

  ! 16 lower-case hex digits of the 64 bits of v, as C's %016llx.
  function hex16(v) result(text)
    integer(int64), intent(in) :: v
    character(len=16) :: text
    character(len=16), parameter :: digits = '0123456789abcdef'
    integer :: i, d
    do i = 1, 16
      d = int(iand(ishft(v, -4 * (16 - i)), 15_int64))
      text(i:i) = digits(d + 1:d + 1)
    end do
  end function

  function file_of(dataset) result(name)
    character(len=*), intent(in) :: dataset
    character(len=:), allocatable :: name
    character(len=16) :: r
    write (r, '(i0)') rank
    name = trim(dataset) // '/rank_' // trim(r) // '.dat'
  end function

  function dataset_of(at) result(name)
    integer, intent(in) :: at
    character(len=32) :: name
    write (name, '(a,i0)') 'step.', at
  end function

  logical function write_state(at, dataset)
    integer, intent(in) :: at
    character(len=*), intent(in) :: dataset
    character(len=SCR_MAX_FILENAME) :: path
    integer :: unit, ios, rc
    write_state = .false.
    call scr_route_file(file_of(dataset), path, rc)
    if (rc /= SCR_SUCCESS) return
    open (newunit=unit, file=path, access='stream', form='unformatted', status='replace', iostat=ios)
    if (ios /= 0) return
    write (unit, iostat=ios) int([at, local_rows, cols, first_row], int32), cur(:, 1:local_rows)
    close (unit)
    write_state = ios == 0
  end function

  logical function read_state(dataset, at)
    character(len=*), intent(in) :: dataset
    integer, intent(out) :: at
    character(len=SCR_MAX_FILENAME) :: path
    integer(int32) :: header(4)
    integer :: unit, ios, rc
    read_state = .false.
    at = 0
    call scr_route_file(file_of(dataset), path, rc)
    if (rc /= SCR_SUCCESS) return
    open (newunit=unit, file=path, access='stream', form='unformatted', status='old', iostat=ios)
    if (ios /= 0) return
    read (unit, iostat=ios) header
    if (ios == 0 .and. header(2) == local_rows .and. header(3) == cols .and. header(4) == first_row) then
      read (unit, iostat=ios) cur(:, 1:local_rows)
      read_state = ios == 0
    end if
    close (unit)
    at = header(1)
  end function

  subroutine checkpoint(at)
    integer, intent(in) :: at
    character(len=32) :: dataset
    character(len=16) :: n
    integer :: rc
    dataset = dataset_of(at)
    call scr_start_output(dataset, SCR_FLAG_CHECKPOINT, rc)
    if (rc /= SCR_SUCCESS) call die('SCR_START_OUTPUT failed')
    call scr_complete_output(write_state(at, dataset), rc)
    if (rc /= SCR_SUCCESS) call die('SCR_COMPLETE_OUTPUT failed')
    write (n, '(i0)') at
    call say('step ' // trim(n) // ": checkpoint '" // trim(dataset) // "' saved")
  end subroutine

  ! The newest checkpoint every rank can read; 0 if there is none.
  integer function restart()
    character(len=SCR_MAX_FILENAME) :: name
    character(len=16) :: n
    integer :: have, rc, at
    logical :: ok
    restart = 0
    do
      call scr_have_restart(have, name, rc)
      if (rc /= SCR_SUCCESS) call die('SCR_HAVE_RESTART failed')
      if (have == 0) return
      call scr_start_restart(name, rc)
      if (rc /= SCR_SUCCESS) call die('SCR_START_RESTART failed')
      ok = read_state(name, at)
      call scr_complete_restart(ok, rc)
      if (rc == SCR_SUCCESS) then
        write (n, '(i0)') at
        call say("resumed from checkpoint '" // trim(name) // "' (step " // trim(n) // ')')
        restart = at
        return
      end if
      call say("checkpoint '" // trim(name) // "' could not be used; asking SCR for an older one")
    end do
  end function

end program heat_f90
