// SPDX-License-Identifier: Apache-2.0
// Language interoperability (MPI-3.1 17.2.4, 17.2.5, 17.1.9): handle conversion between C and
// Fortran, status conversion, and MPI_Type_match_size. simmpi's handles are integers that mean
// the same in both languages (mpi.h), so converting one returns it unchanged; a Fortran status
// is the C status seen as MPI_Fint words, and an MPI_F08_status is the C status itself.
#include <cstring>

#include "libsimmpi/core/api_call.hpp"

extern "C" {

MPI_Fint MPI_Comm_c2f(MPI_Comm comm) {
  return comm;
}
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) {
  return comm;
}
MPI_Fint MPI_Type_c2f(MPI_Datatype type) {
  return type;
}
MPI_Datatype MPI_Type_f2c(MPI_Fint type) {
  return type;
}
MPI_Fint MPI_Group_c2f(MPI_Group group) {
  return group;
}
MPI_Group MPI_Group_f2c(MPI_Fint group) {
  return group;
}
MPI_Fint MPI_Request_c2f(MPI_Request request) {
  return request;
}
MPI_Request MPI_Request_f2c(MPI_Fint request) {
  return request;
}
MPI_Fint MPI_File_c2f(MPI_File file) {
  return file;
}
MPI_File MPI_File_f2c(MPI_Fint file) {
  return file;
}
MPI_Fint MPI_Win_c2f(MPI_Win win) {
  return win;
}
MPI_Win MPI_Win_f2c(MPI_Fint win) {
  return win;
}
MPI_Fint MPI_Op_c2f(MPI_Op op) {
  return op;
}
MPI_Op MPI_Op_f2c(MPI_Fint op) {
  return op;
}
MPI_Fint MPI_Info_c2f(MPI_Info info) {
  return info;
}
MPI_Info MPI_Info_f2c(MPI_Fint info) {
  return info;
}
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) {
  return errhandler;
}
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) {
  return errhandler;
}
MPI_Fint MPI_Message_c2f(MPI_Message message) {
  return message;
}
MPI_Message MPI_Message_f2c(MPI_Fint message) {
  return message;
}

int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  std::memcpy(f_status, c_status, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  std::memcpy(c_status, f_status, sizeof(MPI_Status));
  return MPI_SUCCESS;
}

int MPI_Status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) {
  *f08_status = *c_status;
  return MPI_SUCCESS;
}

int MPI_Status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) {
  *c_status = *f08_status;
  return MPI_SUCCESS;
}

// The Fortran-named predefined type of `size` bytes in `typeclass`, as MPICH answers.
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  simmpi::mpi::ApiCall call("MPI_Type_match_size", simmpi::mpi::ApiCall::Needs::Nothing);
  struct Match {
    int typeclass, size;
    MPI_Datatype type;
  };
  static constexpr Match kMatches[] = {
      {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
      {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
      {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
      {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
      {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
  };
  for (const Match& m : kMatches) {
    if (m.typeclass == typeclass && m.size == size) {
      *datatype = m.type;
      return MPI_SUCCESS;
    }
  }
  return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "no predefined type of typeclass %d (MPI_TYPECLASS_REAL 1, INTEGER 2, COMPLEX "
                   "3) has %d bytes",
                   typeclass, size);
}

}  // extern "C"
