! SPDX-License-Identifier: Apache-2.0
! Fortran 77 with mpif.h: derived datatypes over Fortran (column-major) arrays, sent from each
! rank to the next: a row as a vector, a Fortran-order subarray, indexed blocks, structs with
! MPI-2 address arithmetic and MPI_BOTTOM, the MPI-1 calls with INTEGER displacements, packing,
! type names and contents. Values are computed by hand from the sender's rank.
      PROGRAM DATATYPES
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NRANKS, LEFT, RIGHT, IERR, I, J, W
      INTEGER ROWT, SUBT, INDT, STRT, ABST, OLDT, HVT, HIT, T
      INTEGER SIZES(2), SUBS(2), STARTS(2), BL(2), IDISP(2), TYPES(2)
      INTEGER IV(10), JV(3), NI, NA, ND, COMB, INTS(3), DTS(1)
      INTEGER EXT, LB, UB, SZ, POS, PSIZE, ADDR, NAMELEN
      INTEGER(KIND=MPI_ADDRESS_KIND) ADISP(2), A1, A2, ALB, AEXT
      INTEGER(KIND=MPI_ADDRESS_KIND) ADDRS(1), STRIDE
      DOUBLE PRECISION A(4,5), B(5), C(2,3), X(6), Y(6)
      CHARACTER*64 PACKBUF
      CHARACTER*20 TNAME
      INTEGER SI, RI, OI(2)
      DOUBLE PRECISION SD, RD, OD
      COMMON /SPAIR/ SI, SD
      COMMON /RPAIR/ RI, RD
      COMMON /OPAIR/ OI, OD

      CALL MPI_INIT(IERR)
      W = MPI_COMM_WORLD
      CALL MPI_COMM_RANK(W, RANK, IERR)
      CALL MPI_COMM_SIZE(W, NRANKS, IERR)
      RIGHT = MOD(RANK + 1, NRANKS)
      LEFT = MOD(RANK + NRANKS - 1, NRANKS)
      DO J = 1, 5
        DO I = 1, 4
          A(I, J) = 100 * RANK + 10 * I + J
        END DO
      END DO

! A row of A(4,5) is 5 elements 4 apart.
      CALL MPI_TYPE_VECTOR(5, 1, 4, MPI_DOUBLE_PRECISION, ROWT, IERR)
      CALL MPI_TYPE_COMMIT(ROWT, IERR)
      CALL MPI_SENDRECV(A(2,1), 1, ROWT, RIGHT, 1, B, 5,
     &     MPI_DOUBLE_PRECISION, LEFT, 1, W, MPI_STATUS_IGNORE, IERR)
      DO J = 1, 5
        CALL CHECKD(B(J), DBLE(100 * LEFT + 20 + J), 'vector row')
      END DO

! Rows 2-3, columns 3-5 (0-based starts 1, 2), Fortran order.
      SIZES(1) = 4
      SIZES(2) = 5
      SUBS(1) = 2
      SUBS(2) = 3
      STARTS(1) = 1
      STARTS(2) = 2
      CALL MPI_TYPE_CREATE_SUBARRAY(2, SIZES, SUBS, STARTS,
     &     MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, SUBT, IERR)
      CALL MPI_TYPE_COMMIT(SUBT, IERR)
      CALL MPI_SENDRECV(A, 1, SUBT, RIGHT, 2, C, 6,
     &     MPI_DOUBLE_PRECISION, LEFT, 2, W, MPI_STATUS_IGNORE, IERR)
      DO J = 1, 3
        DO I = 1, 2
          CALL CHECKD(C(I, J), DBLE(100 * LEFT + 10 * (I + 1) + J + 2),
     &                'Fortran-order subarray')
        END DO
      END DO

! Elements 1, 2 and 6 of IV.
      DO I = 1, 10
        IV(I) = 100 * RANK + I
      END DO
      BL(1) = 2
      BL(2) = 1
      IDISP(1) = 0
      IDISP(2) = 5
      CALL MPI_TYPE_INDEXED(2, BL, IDISP, MPI_INTEGER, INDT, IERR)
      CALL MPI_TYPE_COMMIT(INDT, IERR)
      CALL MPI_SENDRECV(IV, 1, INDT, RIGHT, 3, JV, 3, MPI_INTEGER,
     &     LEFT, 3, W, MPI_STATUS_IGNORE, IERR)
      CALL CHECKI(JV(1), 100 * LEFT + 1, 'indexed, first block')
      CALL CHECKI(JV(2), 100 * LEFT + 2, 'indexed, first block')
      CALL CHECKI(JV(3), 100 * LEFT + 6, 'indexed, second block')

! A struct with relative MPI-2 displacements is sent; it is received through MPI_BOTTOM and a
! struct of absolute addresses.
      SI = RANK
      SD = RANK + 0.5D0
      BL(1) = 1
      BL(2) = 1
      TYPES(1) = MPI_INTEGER
      TYPES(2) = MPI_DOUBLE_PRECISION
      CALL MPI_GET_ADDRESS(SI, A1, IERR)
      CALL MPI_GET_ADDRESS(SD, A2, IERR)
      ADISP(1) = 0
      ADISP(2) = MPI_AINT_DIFF(A2, A1)
      CALL CHECK(ADISP(2) .EQ. 8, 'MPI_AINT_DIFF of a COMMON block')
      CALL CHECK(MPI_AINT_ADD(A1, ADISP(2)) .EQ. A2, 'MPI_AINT_ADD')
      CALL MPI_TYPE_CREATE_STRUCT(2, BL, ADISP, TYPES, STRT, IERR)
      CALL MPI_TYPE_COMMIT(STRT, IERR)
      CALL MPI_GET_ADDRESS(RI, ADISP(1), IERR)
      CALL MPI_GET_ADDRESS(RD, ADISP(2), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(2, BL, ADISP, TYPES, ABST, IERR)
      CALL MPI_TYPE_COMMIT(ABST, IERR)
      CALL MPI_SENDRECV(SI, 1, STRT, RIGHT, 4, MPI_BOTTOM, 1, ABST,
     &     LEFT, 4, W, MPI_STATUS_IGNORE, IERR)
      CALL CHECKI(RI, LEFT, 'struct through MPI_BOTTOM, integer')
      CALL CHECKD(RD, LEFT + 0.5D0, 'struct through MPI_BOTTOM, double')

! MPI-1: INTEGER displacements and extents. OI(1) at 0, OD at 8: extent 16, size 12.
      OI(1) = RANK
      OD = 2.0D0 * RANK
      IDISP(1) = 0
      IDISP(2) = 8
      CALL MPI_TYPE_STRUCT(2, BL, IDISP, TYPES, OLDT, IERR)
      CALL MPI_TYPE_COMMIT(OLDT, IERR)
      CALL MPI_TYPE_EXTENT(OLDT, EXT, IERR)
      CALL CHECKI(EXT, 16, 'MPI_TYPE_EXTENT')
      CALL MPI_TYPE_SIZE(OLDT, SZ, IERR)
      CALL CHECKI(SZ, 12, 'MPI_TYPE_SIZE')
      CALL MPI_TYPE_LB(OLDT, LB, IERR)
      CALL MPI_TYPE_UB(OLDT, UB, IERR)
      CALL CHECKI(LB * 100 + UB, 16, 'MPI_TYPE_LB and MPI_TYPE_UB')
      CALL MPI_TYPE_GET_EXTENT(OLDT, ALB, AEXT, IERR)
      CALL CHECK(ALB .EQ. 0 .AND. AEXT .EQ. 16, 'MPI_TYPE_GET_EXTENT')
      CALL MPI_SENDRECV_REPLACE(OI, 1, OLDT, RIGHT, 5, LEFT, 5, W,
     &     MPI_STATUS_IGNORE, IERR)
      CALL CHECKI(OI(1), LEFT, 'MPI_TYPE_STRUCT, integer')
      CALL CHECKD(OD, 2.0D0 * LEFT, 'MPI_TYPE_STRUCT, double')

! Every other double (INTEGER stride of 16 bytes), and elements 1 and 4 (INTEGER byte
! displacements 0 and 24), then the same stride as an MPI_ADDRESS_KIND integer.
      DO I = 1, 6
        X(I) = 10 * RANK + I
      END DO
      CALL MPI_TYPE_HVECTOR(3, 1, 16, MPI_DOUBLE_PRECISION, HVT, IERR)
      CALL MPI_TYPE_COMMIT(HVT, IERR)
      CALL MPI_SENDRECV(X, 1, HVT, RIGHT, 6, Y, 3,
     &     MPI_DOUBLE_PRECISION, LEFT, 6, W, MPI_STATUS_IGNORE, IERR)
      DO I = 1, 3
        CALL CHECKD(Y(I), DBLE(10 * LEFT + 2 * I - 1), 'TYPE_HVECTOR')
      END DO
      IDISP(1) = 0
      IDISP(2) = 24
      CALL MPI_TYPE_HINDEXED(2, BL, IDISP, MPI_DOUBLE_PRECISION, HIT,
     &     IERR)
      CALL MPI_TYPE_COMMIT(HIT, IERR)
      CALL MPI_SENDRECV(X, 1, HIT, RIGHT, 7, Y, 2,
     &     MPI_DOUBLE_PRECISION, LEFT, 7, W, MPI_STATUS_IGNORE, IERR)
      CALL CHECKD(Y(1), DBLE(10 * LEFT + 1), 'MPI_TYPE_HINDEXED')
      CALL CHECKD(Y(2), DBLE(10 * LEFT + 4), 'MPI_TYPE_HINDEXED')
      STRIDE = 16
      CALL MPI_TYPE_CREATE_HVECTOR(3, 1, STRIDE, MPI_DOUBLE_PRECISION,
     &     T, IERR)
      CALL MPI_TYPE_COMMIT(T, IERR)
      CALL MPI_SENDRECV(X(2), 1, T, RIGHT, 8, Y, 3,
     &     MPI_DOUBLE_PRECISION, LEFT, 8, W, MPI_STATUS_IGNORE, IERR)
      CALL CHECKD(Y(3), DBLE(10 * LEFT + 6), 'MPI_TYPE_CREATE_HVECTOR')
      CALL MPI_TYPE_FREE(T, IERR)
      CALL CHECKI(T, MPI_DATATYPE_NULL, 'MPI_TYPE_FREE')

! Packing an INTEGER and a DOUBLE PRECISION into a CHARACTER buffer.
      CALL MPI_PACK_SIZE(1, MPI_INTEGER, W, PSIZE, IERR)
      CALL CHECK(PSIZE .GE. 4, 'MPI_PACK_SIZE')
      POS = 0
      CALL MPI_PACK(RANK, 1, MPI_INTEGER, PACKBUF, 64, POS, W, IERR)
      CALL MPI_PACK(SD, 1, MPI_DOUBLE_PRECISION, PACKBUF, 64, POS, W,
     &     IERR)
      CALL CHECKI(POS, 12, 'MPI_PACK position')
      CALL MPI_SENDRECV_REPLACE(PACKBUF, POS, MPI_PACKED, RIGHT, 9,
     &     LEFT, 9, W, MPI_STATUS_IGNORE, IERR)
      POS = 0
      CALL MPI_UNPACK(PACKBUF, 64, POS, I, 1, MPI_INTEGER, W, IERR)
      CALL MPI_UNPACK(PACKBUF, 64, POS, RD, 1, MPI_DOUBLE_PRECISION, W,
     &     IERR)
      CALL CHECKI(I, LEFT, 'unpacked INTEGER')
      CALL CHECKD(RD, LEFT + 0.5D0, 'unpacked DOUBLE PRECISION')

! Names and contents.
      CALL MPI_TYPE_SET_NAME(ROWT, 'row of A   ', IERR)
      CALL MPI_TYPE_GET_NAME(ROWT, TNAME, NAMELEN, IERR)
      CALL CHECK(TNAME .EQ. 'row of A' .AND. NAMELEN .EQ. 8,
     &           'type name, trailing blanks dropped')
      CALL MPI_TYPE_GET_ENVELOPE(ROWT, NI, NA, ND, COMB, IERR)
      CALL CHECKI(COMB, MPI_COMBINER_VECTOR, 'combiner')
      CALL CHECKI(NI * 100 + NA * 10 + ND, 301, 'envelope counts')
      CALL MPI_TYPE_GET_CONTENTS(ROWT, 3, 0, 1, INTS, ADDRS, DTS, IERR)
      CALL CHECKI(INTS(1) * 100 + INTS(2) * 10 + INTS(3), 514,
     &            'vector contents')
      CALL CHECKI(DTS(1), MPI_DOUBLE_PRECISION, 'vector old type')

! MPI_ADDRESS returns an INTEGER address when it fits, an error when it does not.
      CALL MPI_COMM_SET_ERRHANDLER(W, MPI_ERRORS_RETURN, IERR)
      CALL MPI_GET_ADDRESS(SI, A1, IERR)
      CALL MPI_ADDRESS(SI, ADDR, IERR)
      IF (A1 .EQ. ADDR) THEN
        CALL CHECKI(IERR, MPI_SUCCESS, 'MPI_ADDRESS that fits')
      ELSE
        CALL CHECKI(IERR, MPI_ERR_ARG, 'MPI_ADDRESS that does not fit')
      END IF
      CALL MPI_COMM_SET_ERRHANDLER(W, MPI_ERRORS_ARE_FATAL, IERR)
      CALL FINISH('datatypes_f77')
      END

      INCLUDE 'check.inc'
