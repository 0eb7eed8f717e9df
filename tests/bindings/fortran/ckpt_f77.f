C     A Fortran 77 program (fixed form, INCLUDE 'scrf.h') checkpointing
C     through SCR's Fortran interface; run by fortran.sh.
C       ckpt_f77 NSTEPS CRASH
C     Checkpoint ckpt.NNN after each step; with CRASH > 0 the last rank
C     stops abruptly (STOP 9, no finalize) after checkpoint CRASH. On
C     start it restarts from the newest checkpoint every rank can read,
C     each rank checking the bytes it wrote. Rank 0 prints
C     RESUMED <name> and RESULT last=<NSTEPS>.
      PROGRAM CKPTF77
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'scrf.h'
      INTEGER IERR, RANK, NPROCS, NSTEPS, CRASH, STEP, FIRST
      INTEGER HAVE, VALID, IOS, IS, IR, IV
      CHARACTER*32 DNAME, RNAME
      CHARACTER*64 FNAME
      CHARACTER*(SCR_MAX_FILENAME) PATH
      CHARACTER*16 ARG

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      CALL GET_COMMAND_ARGUMENT(1, ARG)
      READ (ARG, *) NSTEPS
      CALL GET_COMMAND_ARGUMENT(2, ARG)
      READ (ARG, *) CRASH
C     A set with a literal for VAL, as SCR 3.1 programs write it: VAL is
C     read-only storage, which a set leaves alone.
      CALL SCR_CONFIG('SCR_CACHE_SIZE=4', ' ', IERR)
      IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_CONFIG literal VAL')
      CALL SCR_INIT(IERR)
      IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_INIT')

      FIRST = 0
   10 CALL SCR_HAVE_RESTART(HAVE, RNAME, IERR)
      IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_HAVE_RESTART')
      IF (HAVE .EQ. 1) THEN
         CALL SCR_START_RESTART(RNAME, IERR)
         IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_START_RESTART')
C        The name comes back blank-padded: 8 characters, then blanks.
         IF (RNAME(9:32) .NE. ' ' .OR. RNAME(1:5) .NE. 'ckpt.')
     &      CALL DIE('checkpoint name not blank-padded')
         READ (RNAME(6:8), '(I3)') STEP
         CALL FILENM(RNAME, RANK, FNAME)
         CALL SCR_ROUTE_FILE(FNAME, PATH, IERR)
         VALID = 0
         IF (IERR .EQ. SCR_SUCCESS) THEN
            OPEN (10, FILE=PATH, STATUS='OLD', IOSTAT=IOS)
            IF (IOS .EQ. 0) THEN
               READ (10, '(3I10)', IOSTAT=IOS) IS, IR, IV
               CLOSE (10)
               IF (IOS .EQ. 0 .AND. IS .EQ. STEP .AND. IR .EQ. RANK
     &            .AND. IV .EQ. STEP * 1000 + RANK) VALID = 1
            END IF
         END IF
         CALL SCR_COMPLETE_RESTART(VALID, IERR)
         IF (IERR .NE. SCR_SUCCESS) GOTO 10
         FIRST = STEP
         IF (RANK .EQ. 0) WRITE (*, '(A,A8)') 'RESUMED ', RNAME(1:8)
      END IF

      DO 20 STEP = FIRST + 1, NSTEPS
         WRITE (DNAME, '(A5,I3.3)') 'ckpt.', STEP
         CALL SCR_START_OUTPUT(DNAME, SCR_FLAG_CHECKPOINT, IERR)
         IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_START_OUTPUT')
         CALL FILENM(DNAME, RANK, FNAME)
         CALL SCR_ROUTE_FILE(FNAME, PATH, IERR)
         VALID = 0
         IF (IERR .EQ. SCR_SUCCESS) THEN
            OPEN (10, FILE=PATH, STATUS='UNKNOWN', IOSTAT=IOS)
            IF (IOS .EQ. 0) THEN
               WRITE (10, '(3I10)', IOSTAT=IOS) STEP, RANK,
     &            STEP * 1000 + RANK
               CLOSE (10)
               IF (IOS .EQ. 0) VALID = 1
            END IF
         END IF
         CALL SCR_COMPLETE_OUTPUT(VALID, IERR)
         IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_COMPLETE_OUTPUT')
         IF (STEP .EQ. CRASH .AND. RANK .EQ. NPROCS - 1) STOP 9
         CALL SCR_SHOULD_EXIT(HAVE, IERR)
         IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_SHOULD_EXIT')
         IF (HAVE .EQ. 1) GOTO 30
   20 CONTINUE

   30 CALL SCR_FINALIZE(IERR)
      IF (IERR .NE. SCR_SUCCESS) CALL DIE('SCR_FINALIZE')
      IF (RANK .EQ. 0) WRITE (*, '(A,I3.3)') 'RESULT last=', NSTEPS
      CALL MPI_FINALIZE(IERR)
      END

C     The file of RANK in dataset DNAME: fdata/ckpt.NNN/rank_RRR.txt,
C     blank-padded in FNAME (the blanks must not reach the file name).
      SUBROUTINE FILENM(DNAME, RANK, FNAME)
      CHARACTER*(*) DNAME, FNAME
      INTEGER RANK
      WRITE (FNAME, '(A,A8,A,I3.3,A)') 'fdata/', DNAME(1:8), '/rank_',
     &   RANK, '.txt'
      END

      SUBROUTINE DIE(WHAT)
      CHARACTER*(*) WHAT
      INCLUDE 'mpif.h'
      INTEGER IERR
      WRITE (0, '(A,A)') 'ckpt_f77 failed: ', WHAT
      CALL MPI_ABORT(MPI_COMM_WORLD, 3, IERR)
      END
