// SPDX-License-Identifier: Apache-2.0
// Cartesian topologies: MPI_Cart_create (MPI_Comm_create's algorithm over the first
// prod(dims) ranks; reorder is accepted and ignored), MPI_Cart_sub (MPI_Comm_split's), and
// the local queries MPI_Cart_coords/rank/shift/get/map and MPI_Cartdim_get.
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/topo/topo_checks.hpp"

using namespace simmpi::mpi;

namespace {

// The color of a rank in MPI_Cart_sub: its coordinates in the dropped dimensions, row-major.
int sub_color(const Topology& t, int rank, const int* remain) {
  std::vector<int> c = t.coords_of(rank);
  int color = 0;
  for (int d = 0; d < t.ndims(); ++d)
    if (!remain[d])
      color = color * t.dims()[static_cast<std::size_t>(d)] + c[static_cast<std::size_t>(d)];
  return color;
}

std::shared_ptr<Topology> sub_topology(const Topology& t, const int* remain) {
  std::vector<int> dims, periods;
  for (int d = 0; d < t.ndims(); ++d)
    if (remain[d]) {
      dims.push_back(t.dims()[static_cast<std::size_t>(d)]);
      periods.push_back(t.periods()[static_cast<std::size_t>(d)]);
    }
  return std::make_shared<Topology>(Topology::cart(std::move(dims), std::move(periods)));
}

}  // namespace

extern "C" {

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int,
                    MPI_Comm* comm_cart) {
  ApiCall call("MPI_Cart_create");
  CollChecks k(call, comm_old);
  if (!k.ok()) return k.error();
  int nodes = 0;
  int err = check_cart_shape(call, comm_old, ndims, dims, periods, k.comm().size(), &nodes);
  if (err != MPI_SUCCESS) return err;
  if (!comm_cart) return call.fail(comm_old, MPI_ERR_ARG, "comm_cart is NULL");
  k.agree("MPI_Cart_create", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  std::vector<int> d(dims, dims + ndims), p(periods, periods + ndims);
  for (int& x : p) x = x != 0;
  auto topo = std::make_shared<Topology>(Topology::cart(d, p));
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CartCreate);
  rec.value(comm_old).array(d.data(), ndims).array(p.data(), ndims).out(comm_cart);
  err = create_comm(call, k.comm(), group_prefix(k.comm(), nodes), topo, comm_cart);
  if (err != MPI_SUCCESS) rec.cancel();
  if (err != MPI_SUCCESS || *comm_cart == MPI_COMM_NULL) return err;
  const Topology& made = *call.world.find_comm(*comm_cart, call.rank)->topology();
  if (made.dims() != d || made.periods() != p)
    return rec.cancel(), fail_mismatch(call, comm_old,
                                       "this rank passed other dims or periods to "
                                       "MPI_Cart_create than the first member to arrive");
  return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  ApiCall call("MPI_Cart_sub");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  if (t->ndims() > 0 && !remain_dims) return call.fail(comm, MPI_ERR_ARG, "remain_dims is NULL");
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  CollChecks k(call, comm);
  k.agree("MPI_Cart_sub", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  int rank = c->comm_rank(call.rank);
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CartSub);
  rec.value(comm).array(remain_dims, t->ndims()).out(newcomm);
  return split_comm(call, *c, sub_color(*t, rank, remain_dims), rank, sub_topology(*t, remain_dims),
                    newcomm);
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  ApiCall call("MPI_Cart_coords");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  if (rank < 0 || rank >= c->size())
    return call.fail(comm, MPI_ERR_RANK, "rank=%d not in [0,%d)", rank, c->size());
  if (maxdims < t->ndims())
    return call.fail(comm, MPI_ERR_ARG, "maxdims=%d is less than the %d dimensions", maxdims,
                     t->ndims());
  std::vector<int> v = t->coords_of(rank);
  for (int d = 0; d < t->ndims(); ++d) coords[d] = v[static_cast<std::size_t>(d)];
  return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  ApiCall call("MPI_Cart_rank");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  std::vector<int> v(coords, coords + t->ndims());
  int r = t->rank_at(v);
  for (int d = 0; d < t->ndims() && r < 0; ++d) {
    int extent = t->dims()[static_cast<std::size_t>(d)];
    if (!t->periods()[static_cast<std::size_t>(d)] && (coords[d] < 0 || coords[d] >= extent))
      return call.fail(comm, MPI_ERR_ARG,
                       "coords[%d]=%d not in [0,%d) of a non-periodic "
                       "dimension",
                       d, coords[d], extent);
  }
  *rank = r;
  return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  ApiCall call("MPI_Cart_shift");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  if (direction < 0 || direction >= t->ndims())
    return call.fail(comm, MPI_ERR_ARG, "direction=%d not in [0,%d)", direction, t->ndims());
  t->shift(c->comm_rank(call.rank), direction, disp, rank_source, rank_dest);
  return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  ApiCall call("MPI_Cart_get");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  if (maxdims < t->ndims())
    return call.fail(comm, MPI_ERR_ARG, "maxdims=%d is less than the %d dimensions", maxdims,
                     t->ndims());
  std::vector<int> v = t->coords_of(c->comm_rank(call.rank));
  for (std::size_t d = 0; d < v.size(); ++d) {
    dims[d] = t->dims()[d];
    periods[d] = t->periods()[d];
    coords[d] = v[d];
  }
  return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  ApiCall call("MPI_Cartdim_get");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_CART, &c, &err);
  if (!t) return err;
  *ndims = t->ndims();
  return MPI_SUCCESS;
}

// Ranks stay where they are: the first prod(dims) ranks make the grid.
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  ApiCall call("MPI_Cart_map");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  int nodes = 0;
  int err = check_cart_shape(call, comm, ndims, dims, periods, c->size(), &nodes);
  if (err != MPI_SUCCESS) return err;
  int rank = c->comm_rank(call.rank);
  *newrank = rank < nodes ? rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

}  // extern "C"
