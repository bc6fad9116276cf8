// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_c2f and the other handle conversions (identities: handles are ints in both
// languages), and the status conversions between C and Fortran.
#include <cstring>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/fortran/fortran_args.hpp"

using namespace simmpi::mpi;

extern "C" {

int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  ApiCall call("MPI_Status_c2f", ApiCall::Needs::Nothing);
  if (c_status == MPI_STATUS_IGNORE || !c_status || !f_status)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "c_status or f_status is NULL or ignored");
  std::memcpy(f_status, c_status, sizeof *c_status);
  return MPI_SUCCESS;
}

int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  ApiCall call("MPI_Status_f2c", ApiCall::Needs::Nothing);
  if (fortran::is_status_ignore(f_status) || !f_status || !c_status)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "f_status or c_status is NULL or ignored");
  std::memcpy(c_status, f_status, sizeof *c_status);
  return MPI_SUCCESS;
}

// MPI-4.1 19.3.5: between the mpi_f08 status (the C status itself) and an INTEGER status.
int MPI_Status_f082f(const MPI_F08_status* f08_status, MPI_Fint* f_status) {
  ApiCall call("MPI_Status_f082f", ApiCall::Needs::Nothing);
  if (f08_status == MPI_STATUS_IGNORE || !f08_status || !f_status)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "f08_status or f_status is NULL or ignored");
  std::memcpy(f_status, f08_status, sizeof *f08_status);
  return MPI_SUCCESS;
}

int MPI_Status_f2f08(const MPI_Fint* f_status, MPI_F08_status* f08_status) {
  ApiCall call("MPI_Status_f2f08", ApiCall::Needs::Nothing);
  if (fortran::is_status_ignore(f_status) || !f_status || !f08_status)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "f_status or f08_status is NULL or ignored");
  std::memcpy(f08_status, f_status, sizeof *f08_status);
  return MPI_SUCCESS;
}

MPI_Fint MPI_Comm_c2f(MPI_Comm comm) {
  return comm;
}
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) {
  return comm;
}
MPI_Fint MPI_Group_c2f(MPI_Group group) {
  return group;
}
MPI_Group MPI_Group_f2c(MPI_Fint group) {
  return group;
}
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) {
  return datatype;
}
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) {
  return datatype;
}
MPI_Fint MPI_Op_c2f(MPI_Op op) {
  return op;
}
MPI_Op MPI_Op_f2c(MPI_Fint op) {
  return op;
}
MPI_Fint MPI_Request_c2f(MPI_Request request) {
  return request;
}
MPI_Request MPI_Request_f2c(MPI_Fint request) {
  return request;
}
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) {
  return errhandler;
}
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) {
  return errhandler;
}
MPI_Fint MPI_Info_c2f(MPI_Info info) {
  return info;
}
MPI_Info MPI_Info_f2c(MPI_Fint info) {
  return info;
}
MPI_Fint MPI_Win_c2f(MPI_Win win) {
  return win;
}
MPI_Win MPI_Win_f2c(MPI_Fint win) {
  return win;
}
MPI_Fint MPI_File_c2f(MPI_File file) {
  return file;
}
MPI_File MPI_File_f2c(MPI_Fint file) {
  return file;
}
MPI_Fint MPI_Message_c2f(MPI_Message message) {
  return message;
}
MPI_Message MPI_Message_f2c(MPI_Fint message) {
  return message;
}

}  // extern "C"
