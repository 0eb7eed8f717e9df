! SCRPP_INIT_COMM from Fortran (USE SCR, USE MPI_F08: the handle is
! COMM%MPI_VAL): the processes of the
! launch split by parity into jobs A and B, each working in its own prefix
! (arguments 1 and 2). Each job restarts from what SCR++ offers (checking
! its rank's file), then writes checkpoint "<job>.step.<n>" (n: argument 3)
! and prints what it did, as comm_jobs.c.
program comm_jobs_f
  use mpi_f08
  use scr
  implicit none
  type(MPI_Comm) :: comm
  integer :: ierr, world_rank, color, rank, flag, valid, unit, got
  character(len=1) :: job
  character(len=1024) :: prefix, step, name, path
  character(len=64) :: file

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierr)
  color = mod(world_rank, 2)
  job = achar(iachar('A') + color)
  call get_command_argument(1 + color, prefix)
  call get_command_argument(3, step)
  call MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, comm, ierr)
  call MPI_Comm_rank(comm, rank, ierr)
  call chdir(trim(prefix))
  call scr_config("SCR_PREFIX=" // trim(prefix), name, ierr)
  call scrpp_init_comm(comm%MPI_VAL, ierr)
  if (ierr /= SCR_SUCCESS) error stop "SCRPP_INIT_COMM failed"
  write (file, '(a,i0,a)') 'rank_', rank, '.dat'

  call scr_have_restart(flag, name, ierr)
  if (flag == 1) then
    call scr_start_restart(name, ierr)
    call scr_route_file(trim(name) // '/' // trim(file), path, ierr)
    open (newunit=unit, file=trim(path), status='old', action='read', iostat=ierr)
    got = -1
    if (ierr == 0) read (unit, *, iostat=ierr) got
    if (ierr == 0) close (unit)
    valid = 0
    if (got == 1000 * color + rank) valid = 1
    call scr_complete_restart(valid, ierr)
    if (ierr /= SCR_SUCCESS .or. valid /= 1) error stop "restart failed"
    print '(a,a,a,i0,a,a)', 'job ', job, ' rank ', rank, ' resumed ', trim(name)
  else
    print '(a,a,a,i0,a)', 'job ', job, ' rank ', rank, ' fresh'
  end if

  name = job // '.step.' // trim(step)
  call scr_start_output(trim(name), SCR_FLAG_CHECKPOINT, ierr)
  call scr_route_file(trim(name) // '/' // trim(file), path, ierr)
  open (newunit=unit, file=trim(path), status='replace', action='write')
  write (unit, *) 1000 * color + rank
  close (unit)
  call scr_complete_output(1, ierr)
  if (ierr /= SCR_SUCCESS) error stop "checkpoint failed"
  call scr_finalize(ierr)
  call MPI_Comm_free(comm, ierr)
  call MPI_Finalize(ierr)
end program
