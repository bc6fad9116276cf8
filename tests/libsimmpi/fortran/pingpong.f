! SPDX-License-Identifier: Apache-2.0
! Fortran 77 with mpif.h: ping-pong between rank pairs (0,1), (2,3)... with payloads checked,
! status fields (MPI_SOURCE, MPI_TAG, MPI_GET_COUNT) after wildcard receives, probes, nonblocking
! calls, MPI_PROC_NULL, LOGICAL flags, strings, and MPI_WTIME / MPI_WTICK.
      PROGRAM PINGPONG
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 100)
      INTEGER RANK, NRANKS, PEER, IERR, I, ITER, CNT, REQ, RLEN
      INTEGER STATUS(MPI_STATUS_SIZE), IBUF(N)
      DOUBLE PRECISION BUF(N), T0, T1
      LOGICAL FLAG
      CHARACTER*(MPI_MAX_PROCESSOR_NAME) PNAME
      CHARACTER*(MPI_MAX_ERROR_STRING) ESTR
      CHARACTER*10 SHORT

      CALL MPI_INIT(IERR)
      CALL CHECKI(IERR, MPI_SUCCESS, 'MPI_INIT ierror')
      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL CHECK(FLAG, 'MPI_INITIALIZED is .TRUE.')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NRANKS, IERR)
      PEER = RANK + 1
      IF (MOD(RANK, 2) .EQ. 1) PEER = RANK - 1

! Nothing was sent with tag 99: IPROBE answers .FALSE.
      CALL MPI_IPROBE(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, FLAG, STATUS,
     &                IERR)
      CALL CHECK(.NOT. FLAG, 'IPROBE of a tag never sent')

      IF (PEER .LT. NRANKS) THEN
        T0 = MPI_WTIME()
        DO ITER = 1, 10
          IF (MOD(RANK, 2) .EQ. 0) THEN
            DO I = 1, N
              BUF(I) = RANK * 1000 + ITER * 10 + I
            END DO
            CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, PEER, ITER,
     &                    MPI_COMM_WORLD, IERR)
            CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, PEER, ITER,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL CHECKD(BUF(N), DBLE(RANK*1000 + ITER*10 + N + 1),
     &                  'pong payload')
          ELSE
            CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE,
     &                    MPI_ANY_TAG, MPI_COMM_WORLD, STATUS, IERR)
            CALL CHECKI(STATUS(MPI_SOURCE), PEER, 'STATUS(MPI_SOURCE)')
            CALL CHECKI(STATUS(MPI_TAG), ITER, 'STATUS(MPI_TAG)')
            CALL CHECKI(STATUS(MPI_ERROR), MPI_SUCCESS,
     &                  'STATUS(MPI_ERROR)')
            CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, CNT, IERR)
            CALL CHECKI(CNT, N, 'MPI_GET_COUNT')
            CALL MPI_GET_ELEMENTS(STATUS, MPI_DOUBLE_PRECISION, CNT,
     &                            IERR)
            CALL CHECKI(CNT, N, 'MPI_GET_ELEMENTS')
            CALL MPI_TEST_CANCELLED(STATUS, FLAG, IERR)
            CALL CHECK(.NOT. FLAG, 'MPI_TEST_CANCELLED')
            CALL CHECKD(BUF(1), DBLE(PEER*1000 + ITER*10 + 1),
     &                  'ping payload')
            DO I = 1, N
              BUF(I) = BUF(I) + 1
            END DO
            CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, PEER, ITER,
     &                    MPI_COMM_WORLD, IERR)
          END IF
        END DO
        T1 = MPI_WTIME()
        CALL CHECK(T1 .GT. T0, 'MPI_WTIME advances over messages')

! A short message, probed first: the count comes from the probe's status.
        IF (MOD(RANK, 2) .EQ. 0) THEN
          DO I = 1, 7
            IBUF(I) = I * I
          END DO
          CALL MPI_SEND(IBUF, 7, MPI_INTEGER, PEER, 5, MPI_COMM_WORLD,
     &                  IERR)
        ELSE
          CALL MPI_PROBE(PEER, MPI_ANY_TAG, MPI_COMM_WORLD, STATUS,
     &                   IERR)
          CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
          CALL CHECKI(CNT, 7, 'count from MPI_PROBE')
          CALL CHECKI(STATUS(MPI_TAG), 5, 'tag from MPI_PROBE')
          CALL MPI_RECV(IBUF, CNT, MPI_INTEGER, PEER, 5, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, IERR)
          CALL CHECKI(IBUF(7), 49, 'probed payload')
        END IF

! Nonblocking: IRECV then TEST until done, ISEND then WAIT.
        CALL MPI_IRECV(IBUF, N, MPI_INTEGER, PEER, 6, MPI_COMM_WORLD,
     &                 REQ, IERR)
        CALL MPI_SEND(RANK, 1, MPI_INTEGER, PEER, 6, MPI_COMM_WORLD,
     &                IERR)
        FLAG = .FALSE.
        DO WHILE (.NOT. FLAG)
          CALL MPI_TEST(REQ, FLAG, STATUS, IERR)
        END DO
        CALL CHECKI(REQ, MPI_REQUEST_NULL, 'request freed by MPI_TEST')
        CALL CHECKI(IBUF(1), PEER, 'payload after MPI_TEST')
        CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
        CALL CHECKI(CNT, 1, 'count after MPI_TEST')
        CALL MPI_ISEND(RANK, 1, MPI_INTEGER, PEER, 7, MPI_COMM_WORLD,
     &                 REQ, IERR)
        CALL MPI_RECV(IBUF, 1, MPI_INTEGER, PEER, 7, MPI_COMM_WORLD,
     &                STATUS, IERR)
        CALL MPI_WAIT(REQ, STATUS, IERR)
        CALL CHECKI(IBUF(1), PEER, 'payload with MPI_ISEND')
      END IF

! A receive from MPI_PROC_NULL completes at once with an empty status.
      CALL MPI_RECV(IBUF, N, MPI_INTEGER, MPI_PROC_NULL, 1,
     &              MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECKI(STATUS(MPI_SOURCE), MPI_PROC_NULL, 'PROC_NULL source')
      CALL CHECKI(STATUS(MPI_TAG), MPI_ANY_TAG, 'PROC_NULL tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
      CALL CHECKI(CNT, 0, 'PROC_NULL count')

! A ring with SENDRECV and SENDRECV_REPLACE.
      CALL MPI_SENDRECV(RANK, 1, MPI_INTEGER, MOD(RANK + 1, NRANKS), 8,
     &                  CNT, 1, MPI_INTEGER,
     &                  MOD(RANK + NRANKS - 1, NRANKS), 8,
     &                  MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECKI(CNT, MOD(RANK + NRANKS - 1, NRANKS), 'SENDRECV')
      CNT = RANK
      CALL MPI_SENDRECV_REPLACE(CNT, 1, MPI_INTEGER,
     &                          MOD(RANK + 1, NRANKS), 9,
     &                          MOD(RANK + NRANKS - 1, NRANKS), 9,
     &                          MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECKI(CNT, MOD(RANK + NRANKS - 1, NRANKS),
     &            'SENDRECV_REPLACE')
      CALL CHECKI(STATUS(MPI_SOURCE), MOD(RANK + NRANKS - 1, NRANKS),
     &            'SENDRECV_REPLACE source')

! Strings come back padded with blanks; the length is the text's.
      PNAME = 'x'
      CALL MPI_GET_PROCESSOR_NAME(PNAME, RLEN, IERR)
      CALL CHECK(RLEN .GT. 0 .AND. RLEN .LT. MPI_MAX_PROCESSOR_NAME,
     &           'processor name length')
      CALL CHECK(PNAME(RLEN+1:) .EQ. ' ', 'processor name padding')
      CALL CHECK(PNAME(RLEN:RLEN) .NE. ' ', 'processor name text')
      CALL MPI_ERROR_STRING(MPI_ERR_RANK, ESTR, RLEN, IERR)
      CALL CHECK(RLEN .GT. 0 .AND. ESTR(RLEN+1:) .EQ. ' ',
     &           'error string')
      CALL MPI_ERROR_STRING(MPI_ERR_RANK, SHORT, RLEN, IERR)
      CALL CHECK(SHORT .EQ. ESTR(1:10), 'error string truncated')
      CALL MPI_GET_VERSION(I, CNT, IERR)
      CALL CHECKI(I * 10 + CNT, 41, 'MPI_GET_VERSION')
      CALL CHECK(MPI_WTICK() .GT. 0.0D0, 'MPI_WTICK')
      CALL FINISH('pingpong_f77')
      END

      INCLUDE 'check.inc'
