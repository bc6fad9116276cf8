/* SPDX-License-Identifier: Apache-2.0 */
/* Derived datatypes on their own (no messages): every constructor against a hand-computed size,
 * bounds and type map (read back with MPI_Pack), envelopes and contents, names, packing, and the
 * error class of each kind of bad argument. Every rank runs the same checks. */
#include <stddef.h>
#include <string.h>

#include "check.h"

static int ints[48]; /* ints[i] == i: packing a type from it shows which elements it selects */

/* Packs `count` elements of `t` from `base` and checks that they are the ints `expect`. */
static void check_selects(MPI_Datatype t, const void* base, int count, const int* expect, int n,
                          const char* what) {
  int got[64], pos = 0;
  MPI_Pack(base, count, t, got, sizeof got, &pos, MPI_COMM_WORLD);
  CHECK(pos == n * (int)sizeof(int), "%s packs %d bytes, expected %d", what, pos, n * 4);
  for (int i = 0; i < n && i * 4 < pos; ++i)
    CHECK(got[i] == expect[i], "%s: packed int %d is %d, expected %d", what, i, got[i], expect[i]);
}

static void check_bounds(MPI_Datatype t, int size, MPI_Aint lb, MPI_Aint extent, MPI_Aint true_lb,
                         MPI_Aint true_extent, const char* what) {
  int s;
  MPI_Aint l, e, tl, te;
  MPI_Type_size(t, &s);
  MPI_Type_get_extent(t, &l, &e);
  MPI_Type_get_true_extent(t, &tl, &te);
  CHECK(s == size, "%s: size %d, expected %d", what, s, size);
  CHECK(l == lb && e == extent, "%s: lb %ld extent %ld, expected %ld %ld", what, l, e, lb, extent);
  CHECK(tl == true_lb && te == true_extent, "%s: true lb %ld extent %ld, expected %ld %ld", what,
        tl, te, true_lb, true_extent);
}

static void pair_types(void) {
  check_bounds(MPI_DOUBLE_INT, 12, 0, 16, 0, 12, "MPI_DOUBLE_INT");
  check_bounds(MPI_SHORT_INT, 6, 0, 8, 0, 8, "MPI_SHORT_INT");
  check_bounds(MPI_LONG_INT, 12, 0, 16, 0, 12, "MPI_LONG_INT");
  check_bounds(MPI_FLOAT_INT, 8, 0, 8, 0, 8, "MPI_FLOAT_INT");
  check_bounds(MPI_2INT, 8, 0, 8, 0, 8, "MPI_2INT");
  check_bounds(MPI_LONG_DOUBLE_INT, 20, 0, 32, 0, 20, "MPI_LONG_DOUBLE_INT");
  struct {
    double v;
    int i;
  } p[2] = {{1.5, 7}, {2.5, 9}}, q[2];
  char buf[64];
  int pos = 0;
  MPI_Pack(p, 2, MPI_DOUBLE_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  CHECK(pos == 24, "2 x MPI_DOUBLE_INT pack to %d bytes", pos);
  pos = 0;
  MPI_Unpack(buf, sizeof buf, &pos, q, 2, MPI_DOUBLE_INT, MPI_COMM_WORLD);
  CHECK(q[1].v == 2.5 && q[1].i == 9, "MPI_DOUBLE_INT round trip %g %d", q[1].v, q[1].i);
}

static void vectors(void) {
  MPI_Datatype v, hv, neg, c;
  MPI_Type_vector(3, 2, 4, MPI_INT, &v);
  MPI_Type_commit(&v);
  check_bounds(v, 24, 0, 40, 0, 40, "vector(3,2,4,int)");
  int e1[] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19};
  check_selects(v, ints, 2, e1, 12, "2 x vector(3,2,4,int)");
  MPI_Type_create_hvector(2, 1, 12, MPI_DOUBLE, &hv);
  check_bounds(hv, 16, 0, 20, 0, 20, "hvector(2,1,12 bytes,double)");
  MPI_Type_vector(3, 1, -2, MPI_INT, &neg);
  MPI_Type_commit(&neg);
  check_bounds(neg, 12, -16, 20, -16, 20, "vector(3,1,-2,int)");
  int e2[] = {4, 2, 0};
  check_selects(neg, ints + 4, 1, e2, 3, "vector with negative stride");
  MPI_Type_contiguous(3, v, &c); /* built on an uncommitted type: allowed */
  MPI_Type_commit(&c);
  check_bounds(c, 72, 0, 120, 0, 120, "contiguous(3, vector)");
  MPI_Type_free(&v);
  MPI_Type_free(&hv);
  MPI_Type_free(&neg);
  int e3[] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19, 20, 21, 24, 25, 28, 29};
  check_selects(c, ints, 1, e3, 18, "contiguous(3, vector) after the vector was freed");
  MPI_Type_free(&c);
  CHECK(c == MPI_DATATYPE_NULL, "MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
}

static void indexed(void) {
  MPI_Datatype ix, hx, ib, hb;
  int bl[3] = {2, 0, 1}, dp[3] = {4, 0, 1};
  MPI_Type_indexed(3, bl, dp, MPI_INT, &ix);
  MPI_Type_commit(&ix);
  check_bounds(ix, 12, 4, 20, 4, 20, "indexed({2,0,1},{4,0,1})");
  int e1[] = {4, 5, 1};
  check_selects(ix, ints, 1, e1, 3, "indexed");
  int hbl[2] = {1, 2};
  MPI_Aint hdp[2] = {8, 0};
  MPI_Type_create_hindexed(2, hbl, hdp, MPI_SHORT, &hx);
  check_bounds(hx, 6, 0, 10, 0, 10, "hindexed({1,2},{8,0},short)");
  int bdp[3] = {6, 0, 3};
  MPI_Type_create_indexed_block(3, 2, bdp, MPI_INT, &ib);
  MPI_Type_commit(&ib);
  check_bounds(ib, 24, 0, 32, 0, 32, "indexed_block(3,2,{6,0,3})");
  int e2[] = {6, 7, 0, 1, 3, 4};
  check_selects(ib, ints, 1, e2, 6, "indexed_block");
  MPI_Aint hbdp[2] = {0, 32};
  MPI_Type_create_hindexed_block(2, 3, hbdp, MPI_CHAR, &hb);
  check_bounds(hb, 6, 0, 35, 0, 35, "hindexed_block(2,3,{0,32},char)");
  MPI_Type_free(&ix);
  MPI_Type_free(&hx);
  MPI_Type_free(&ib);
  MPI_Type_free(&hb);
}

struct Mixed {
  int a;
  double b;
  char c;
};

static void structs(void) {
  MPI_Datatype s, r, two;
  int bl[3] = {1, 1, 1};
  MPI_Aint dp[3] = {offsetof(struct Mixed, a), offsetof(struct Mixed, b),
                    offsetof(struct Mixed, c)};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(3, bl, dp, ty, &s);
  MPI_Type_commit(&s);
  /* ub 17 padded to the double's alignment: the extent is sizeof(struct Mixed) */
  check_bounds(s, 13, 0, (MPI_Aint)sizeof(struct Mixed), 0, 17, "struct {int; double; char}");
  struct Mixed in[2] = {{1, 2.5, 'x'}, {3, 4.5, 'y'}}, out[2];
  memset(out, 0, sizeof out);
  char buf[64];
  int pos = 0;
  MPI_Pack(in, 2, s, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  CHECK(pos == 26, "2 structs pack to %d bytes", pos);
  pos = 0;
  MPI_Unpack(buf, pos + 26, &pos, out, 2, s, MPI_COMM_WORLD);
  CHECK(out[1].a == 3 && out[1].b == 4.5 && out[1].c == 'y', "struct round trip");
  MPI_Type_create_resized(MPI_INT, -4, 16, &r);
  MPI_Type_commit(&r);
  check_bounds(r, 4, -4, 16, 0, 4, "resized(int,-4,16)");
  MPI_Type_contiguous(2, r, &two);
  MPI_Type_commit(&two);
  check_bounds(two, 8, -4, 32, 0, 20, "contiguous(2, resized)");
  int e[] = {0, 4};
  check_selects(two, ints, 1, e, 2, "contiguous(2, resized)");
  MPI_Aint lb, ub, ext;
  MPI_Type_lb(r, &lb);
  MPI_Type_ub(r, &ub);
  MPI_Type_extent(r, &ext);
  CHECK(lb == -4 && ub == 12 && ext == 16, "MPI-1 bounds %ld %ld %ld", lb, ub, ext);
  MPI_Count clb, cext, csize;
  MPI_Type_get_extent_x(two, &clb, &cext);
  MPI_Type_size_x(two, &csize);
  CHECK(clb == -4 && cext == 32 && csize == 8, "_x queries %lld %lld %lld", clb, cext, csize);
  MPI_Type_get_true_extent_x(two, &clb, &cext);
  CHECK(clb == 0 && cext == 20, "true extent _x %lld %lld", clb, cext);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
  MPI_Type_free(&two);
}

/* HPL's way: MPI_Address of each piece, MPI_Type_struct, then MPI_BOTTOM. */
static double g_panel[6];
static int g_info[2];

static void absolute_addresses(void) {
  for (int i = 0; i < 6; ++i) g_panel[i] = i + 0.5;
  g_info[0] = 41;
  g_info[1] = 42;
  int bl[2] = {3, 2};
  MPI_Aint dp[2];
  MPI_Address(&g_panel[2], &dp[0]);
  MPI_Get_address(g_info, &dp[1]);
  MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT}, t;
  MPI_Type_struct(2, bl, dp, ty, &t);
  MPI_Type_commit(&t);
  char buf[64];
  int pos = 0, size;
  MPI_Type_size(t, &size);
  CHECK(size == 32, "absolute struct size %d", size);
  MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  double d[3];
  int k[2];
  memcpy(d, buf, sizeof d);
  memcpy(k, buf + 24, sizeof k);
  CHECK(d[0] == 2.5 && d[2] == 4.5 && k[1] == 42, "MPI_BOTTOM pack %g %g %d", d[0], d[2], k[1]);
  MPI_Aint a0, a1;
  MPI_Get_address(&g_panel[0], &a0);
  MPI_Get_address(&g_panel[5], &a1);
  CHECK(MPI_Aint_diff(a1, a0) == 40 && MPI_Aint_add(a0, 40) == a1, "address arithmetic");
  MPI_Type_free(&t);
  /* The MPI-1 constructors with byte strides. */
  MPI_Datatype hv, hx;
  MPI_Type_hvector(2, 2, 16, MPI_INT, &hv);
  MPI_Type_commit(&hv);
  int e1[] = {0, 1, 4, 5};
  check_selects(hv, ints, 1, e1, 4, "MPI_Type_hvector");
  int hbl[2] = {1, 1};
  MPI_Aint hdp[2] = {12, 4};
  MPI_Type_hindexed(2, hbl, hdp, MPI_INT, &hx);
  MPI_Type_commit(&hx);
  int e2[] = {3, 1};
  check_selects(hx, ints, 1, e2, 2, "MPI_Type_hindexed");
  MPI_Type_free(&hv);
  MPI_Type_free(&hx);
}

static void arrays(void) {
  MPI_Datatype c, f, d1, d2;
  int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &c);
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &f);
  MPI_Type_commit(&c);
  MPI_Type_commit(&f);
  check_bounds(c, 24, 0, 96, 32, 36, "subarray C");
  int ec[] = {8, 9, 10, 14, 15, 16}, ef[] = {9, 10, 13, 14, 17, 18};
  check_selects(c, ints, 1, ec, 6, "subarray C");
  check_selects(f, ints, 1, ef, 6, "subarray Fortran");
  /* 4x7 on a 2x2 grid: block rows, columns cyclic by 2 */
  int g[2] = {4, 7}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
  MPI_Type_create_darray(4, 1, 2, g, dist, darg, ps, MPI_ORDER_C, MPI_INT, &d1);
  MPI_Type_create_darray(4, 2, 2, g, dist, darg, ps, MPI_ORDER_C, MPI_INT, &d2);
  MPI_Type_commit(&d1);
  MPI_Type_commit(&d2);
  check_bounds(d1, 24, 0, 112, 8, 48, "darray rank 1");
  int e1[] = {2, 3, 6, 9, 10, 13}, e2[] = {14, 15, 18, 19, 21, 22, 25, 26};
  check_selects(d1, ints, 1, e1, 6, "darray rank 1");
  check_selects(d2, ints, 1, e2, 8, "darray rank 2");
  MPI_Type_free(&c);
  MPI_Type_free(&f);
  MPI_Type_free(&d1);
  MPI_Type_free(&d2);
}

static void envelopes(void) {
  int ni, na, nd, comb, iv[16];
  MPI_Aint av[4];
  MPI_Datatype dv[4], v, s, r, dup;
  MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_NAMED && ni + na + nd == 0, "predefined envelope %d", comb);
  MPI_Type_vector(3, 2, 4, MPI_INT, &v);
  MPI_Type_get_envelope(v, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "vector envelope");
  MPI_Type_get_contents(v, 16, 4, 4, iv, av, dv);
  CHECK(iv[0] == 3 && iv[1] == 2 && iv[2] == 4 && dv[0] == MPI_INT, "vector contents");
  int bl[2] = {1, 2};
  MPI_Aint dp[2] = {0, 8};
  MPI_Datatype ty[2] = {v, MPI_DOUBLE};
  MPI_Type_create_struct(2, bl, dp, ty, &s);
  MPI_Type_free(&v); /* s keeps it alive; contents return a new handle to it */
  MPI_Type_get_envelope(s, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2, "struct envelope");
  MPI_Type_get_contents(s, 16, 4, 4, iv, av, dv);
  CHECK(iv[0] == 2 && iv[2] == 2 && av[1] == 8 && dv[1] == MPI_DOUBLE, "struct contents");
  MPI_Type_get_envelope(dv[0], &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_VECTOR, "the returned member is the vector (%d)", comb);
  MPI_Type_free(&dv[0]);
  MPI_Type_create_resized(s, -8, 64, &r);
  MPI_Type_get_contents(r, 0, 4, 4, iv, av, dv);
  CHECK(av[0] == -8 && av[1] == 64, "resized contents %ld %ld", av[0], av[1]);
  MPI_Type_free(&dv[0]);
  MPI_Type_commit(&r);
  MPI_Type_dup(r, &dup);
  MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_DUP && nd == 1, "dup envelope");
  MPI_Aint lb, ext;
  MPI_Type_get_extent(dup, &lb, &ext);
  CHECK(lb == -8 && ext == 64, "dup keeps the bounds");
  int sizes[2] = {4, 6}, subs[2] = {2, 3}, st[2] = {1, 2};
  MPI_Datatype sa;
  MPI_Type_create_subarray(2, sizes, subs, st, MPI_ORDER_FORTRAN, MPI_INT, &sa);
  MPI_Type_get_envelope(sa, &ni, &na, &nd, &comb);
  CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8, "subarray envelope %d", ni);
  MPI_Type_get_contents(sa, 16, 4, 4, iv, av, dv);
  CHECK(iv[0] == 2 && iv[3] == 2 && iv[6] == 2 && iv[7] == MPI_ORDER_FORTRAN, "subarray contents");
  MPI_Type_free(&sa);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
  MPI_Type_free(&dup);
}

static void names(void) {
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Type_get_name(MPI_DOUBLE, name, &len);
  CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "predefined name %s", name);
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_get_name(t, name, &len);
  CHECK(len == 0 && name[0] == 0, "a new type has no name (%s)", name);
  MPI_Type_set_name(t, "pair of ints");
  MPI_Type_get_name(t, name, &len);
  CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "set name %s", name);
  MPI_Type_free(&t);
}

static void packing(void) {
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 3, MPI_INT, &v);
  MPI_Type_commit(&v);
  int size;
  MPI_Pack_size(5, v, MPI_COMM_WORLD, &size);
  CHECK(size == 40, "pack size %d", size);
  char buf[64];
  int pos = 0, seven = 7;
  double half = 0.5;
  MPI_Pack(&seven, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(ints, 2, v, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(&half, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  CHECK(pos == 4 + 16 + 8, "position after three packs %d", pos);
  int x = 0, got[4];
  double h = 0;
  pos = 0;
  MPI_Unpack(buf, 28, &pos, &x, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(buf, 28, &pos, got, 4, MPI_INT, MPI_COMM_WORLD);
  MPI_Unpack(buf, 28, &pos, &h, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  CHECK(x == 7 && got[0] == 0 && got[1] == 3 && got[2] == 4 && got[3] == 7 && h == 0.5,
        "unpacked %d %d %d %d %d %g", x, got[0], got[1], got[2], got[3], h);
  MPI_Type_free(&v);
}

/* A freed handle stays invalid until 32 more have been freed; then the oldest is reused. A dup
 * of a committed type is committed. */
static void handles(void) {
  MPI_Datatype first, t;
  MPI_Type_contiguous(1, MPI_INT, &first);
  MPI_Datatype kept = first;
  MPI_Type_free(&first);
  int reused_at = -1;
  for (int i = 0; i < 100 && reused_at < 0; ++i) {
    MPI_Type_contiguous(1, MPI_INT, &t);
    if (t == kept) reused_at = i;
    MPI_Type_free(&t);
  }
  CHECK(reused_at == 32, "the first freed handle is reused by the 33rd new type (%d)", reused_at);
  MPI_Type_dup(MPI_INT, &t);
  int ni, na, nd, comb, x = 5, pos = 0;
  MPI_Datatype old;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
  MPI_Type_get_contents(t, 0, 0, 1, NULL, NULL, &old);
  CHECK(comb == MPI_COMBINER_DUP && old == MPI_INT, "dup of MPI_INT");
  char buf[4];
  CHECK(MPI_Pack(&x, 1, t, buf, 4, &pos, MPI_COMM_WORLD) == MPI_SUCCESS && pos == 4,
        "a dup of a predefined type is committed");
  MPI_Type_free(&t);
}

/* The error class of each kind of bad argument, with MPI_ERRORS_RETURN. */
static void errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype t = MPI_DATATYPE_NULL, v;
  int bl[2] = {1, -1}, dp[2] = {0, 1}, cls;
  MPI_Error_class(MPI_Type_contiguous(-1, MPI_INT, &t), &cls);
  CHECK(cls == MPI_ERR_COUNT, "negative count gives %d", cls);
  CHECK(MPI_Type_vector(2, -1, 1, MPI_INT, &t) == MPI_ERR_ARG, "negative blocklength");
  CHECK(MPI_Type_indexed(2, bl, dp, MPI_INT, &t) == MPI_ERR_ARG, "negative block length");
  CHECK(MPI_Type_indexed(2, NULL, dp, MPI_INT, &t) == MPI_ERR_ARG, "NULL array");
  CHECK(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t) == MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
  CHECK(MPI_Type_contiguous(2, MPI_INT, NULL) == MPI_ERR_ARG, "NULL newtype");
  MPI_Type_contiguous(2, MPI_INT, &v);
  int x[2] = {1, 2};
  CHECK(MPI_Send(x, 1, v, 0, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE, "uncommitted type in a send");
  int pos = 0;
  char buf[4];
  CHECK(MPI_Pack(x, 1, v, buf, 4, &pos, MPI_COMM_WORLD) == MPI_ERR_TYPE, "uncommitted in pack");
  MPI_Type_commit(&v);
  CHECK(MPI_Pack(x, 1, v, buf, 4, &pos, MPI_COMM_WORLD) == MPI_ERR_ARG, "pack buffer too small");
  CHECK(MPI_Unpack(buf, 4, &pos, x, 1, v, MPI_COMM_WORLD) == MPI_ERR_TRUNCATE, "unpack too short");
  MPI_Datatype stale = v;
  MPI_Type_free(&v);
  CHECK(MPI_Type_commit(&stale) == MPI_ERR_TYPE, "a freed handle");
  CHECK(MPI_Type_free(&stale) == MPI_ERR_TYPE, "freeing a freed handle");
  MPI_Datatype i = MPI_INT;
  CHECK(MPI_Type_free(&i) == MPI_ERR_TYPE && i == MPI_INT, "freeing a predefined type");
  int iv[1];
  MPI_Aint av[1];
  MPI_Datatype dv[1];
  CHECK(MPI_Type_get_contents(MPI_INT, 1, 1, 1, iv, av, dv) == MPI_ERR_TYPE, "predefined contents");
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  CHECK(MPI_Type_get_contents(v, 2, 0, 1, iv, av, dv) == MPI_ERR_ARG, "contents arrays too small");
  // A predefined type may be renamed, for the renaming process (as in MPICH).
  char tn[MPI_MAX_OBJECT_NAME];
  int tl;
  CHECK(MPI_Type_set_name(MPI_INT, "mine") == MPI_SUCCESS, "renaming a predefined type");
  MPI_Type_get_name(MPI_INT, tn, &tl);
  CHECK(strcmp(tn, "mine") == 0 && tl == 4, "a predefined type's new name");
  MPI_Type_set_name(MPI_INT, "MPI_INT");
  MPI_Type_free(&v);
  int sizes[1] = {4}, subs[1] = {3}, starts[1] = {2};
  CHECK(MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
        "subarray past the end");
  CHECK(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_DIMS,
        "subarray with 0 dimensions");
  CHECK(MPI_Type_create_subarray(1, sizes, subs, dp, 99, MPI_INT, &t) == MPI_ERR_ARG, "bad order");
  int g[1] = {8}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {MPI_DISTRIBUTE_DFLT_DARG}, p[1] = {3};
  CHECK(MPI_Type_create_darray(4, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
        "darray grid of the wrong size");
  a[0] = 2;
  CHECK(MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
        "darray blocks too small for the array");
  CHECK(t == MPI_DATATYPE_NULL, "failed constructors leave newtype alone");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 48; ++i) ints[i] = i;
  pair_types();
  vectors();
  indexed();
  structs();
  absolute_addresses();
  arrays();
  envelopes();
  names();
  packing();
  handles();
  errors();
  return finish("datatypes_layout");
}
