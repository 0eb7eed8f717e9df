! fortran_regions MODE: memory regions through USE SCR (scr_regions.f90),
! with assumed-shape arrays and no C_LOC here. Every rank protects its step
! (an int64 array of one) and a 2-D grid, 10 x (10 + rank), of real64;
! tests/regions/lang_regions.sh runs the modes:
!   write     checkpoints steps 1 and 2, prints "WROTE step.2", aborts
!   mismatch  a grid one column wider: SCRPP_RESTORE fails, nothing touched;
!             a strided section is refused by SCRPP_PROTECT
!   restore   SCRPP_RESTORE gives step.2, every element checked
!   rescale   at another size: every writer's grid through SCRPP_REGION_INFO
!             and SCRPP_RESTORE_FROM, spread over the ranks
program fortran_regions
  use mpi_f08
  use scr
  use, intrinsic :: iso_fortran_env, only: real64, int64
  implicit none
  character(len=16) :: mode
  character(len=64) :: name
  integer :: rank, ranks, ierror, s, w, writers, cols
  integer(int64) :: step(1), count, elem_size
  real(real64), allocatable, target :: grid(:,:), before(:,:), theirs(:)
  real(real64), target :: wide(20)
  logical :: ok, restored
  integer :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)
  call get_command_argument(1, mode)
  call scr_init(ierror)
  cols = 10 + rank
  if (mode == 'mismatch') cols = cols + 1
  allocate(grid(10, cols))
  grid = -1
  step = 0
  call scrpp_protect(0, step, ierror)
  call scrpp_protect(1, grid, ierror)
  ok = ierror == SCR_SUCCESS

  select case (trim(mode))
  case ('write')
    do s = 1, 2
      step(1) = s
      call fill(grid, rank, s)
      write(name, '(a,i0)') 'step.', s
      call scrpp_checkpoint(name, ierror)
      ok = ok .and. ierror == SCR_SUCCESS
    end do
    call say(ok, 'WROTE step.2')
    ! Rank 0 has printed before any rank aborts the job.
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Abort(MPI_COMM_WORLD, 9)
  case ('mismatch')
    step = -5
    before = grid
    call scrpp_restore(restored, name, ierror)
    ok = ok .and. ierror /= SCR_SUCCESS .and. .not. restored .and. step(1) == -5 .and. all(grid == before)
    call scrpp_protect(2, wide(1:20:2), ierror)
    ok = ok .and. ierror /= SCR_SUCCESS
    call say(ok, 'REFUSED UNTOUCHED')
  case ('restore')
    call scrpp_restore(restored, name, ierror)
    ok = ok .and. ierror == SCR_SUCCESS .and. restored .and. name == 'step.2' .and. step(1) == 2
    ok = ok .and. matches(grid, rank, 2)
    call say(ok, 'RESTORED step.2')
  case ('rescale')
    call scr_have_restart(flag, name, ierror)
    call scr_start_restart(name, ierror)
    call scrpp_read_regions(ierror)
    ok = ok .and. ierror /= SCR_SUCCESS  ! other writers than ranks: refused
    writers = 4
    do w = rank, writers - 1, ranks
      call scrpp_region_info(w, 1, count, elem_size, ierror)
      ok = ok .and. ierror == SCR_SUCCESS .and. count == 10 * (10 + w) .and. elem_size == 8
      allocate(theirs(count))
      call scrpp_restore_from(w, 1, theirs, ierror)
      ok = ok .and. ierror == SCR_SUCCESS .and. matches(reshape(theirs, [10, 10 + w]), w, 2)
      deallocate(theirs)
    end do
    call scr_complete_restart(.true., ierror)
    write(name, '(a,i0,a,i0)') 'RESCALED ', writers, ' onto ', ranks
    call say(ok, trim(name))
  end select
  call scr_finalize(ierror)
  call MPI_Finalize()
  if (.not. ok) error stop 1

contains

  pure subroutine fill(g, writer, s)
    real(real64), intent(out) :: g(:,:)
    integer, intent(in) :: writer, s
    integer :: i, j
    do j = 1, size(g, 2)
      do i = 1, size(g, 1)
        g(i, j) = writer * 1000.0_real64 + s + i * 0.25_real64 + j * 0.125_real64
      end do
    end do
  end subroutine

  pure logical function matches(g, writer, s)
    real(real64), intent(in) :: g(:,:)
    integer, intent(in) :: writer, s
    real(real64), allocatable :: want(:,:)
    allocate(want(size(g, 1), size(g, 2)))
    call fill(want, writer, s)
    matches = all(g == want)
  end function

  ! Rank 0 prints line when ok holds on every rank.
  subroutine say(ok, line)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: line
    logical :: all_ok
    call MPI_Allreduce(ok, all_ok, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
    if (all_ok .and. rank == 0) print '(a)', line
    flush(6)
  end subroutine

end program
