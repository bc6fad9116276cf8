/* SPDX-License-Identifier: Apache-2.0 */
/* One collective algorithm's simulated time against its closed-form cost (the formula in the
 * header of its file under libsimmpi/coll/), built from the transport's per-message time:
 *   h(S) = o_s + L + w(S) + o_r (eager, S <= eager threshold), o_s + 3L + w(S) + o_r
 *   (rendezvous), w(S) = S/B, g(S) = max(o_s, w(S)), lg = ceil(log2 p).
 * The algorithm is forced with --set; the same platform parameters go to the simulator and, as
 * arguments, to this program:
 *   coll_timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S EAGER_BYTES SEGMENT_BYTES THROTTLE
 *               COLLECTIVE ALGORITHM BYTES
 * BYTES is the vector of a broadcast, reduction or scan and one rank's block otherwise. The
 * collective is the first call after MPI_Init, so every rank starts it at time 0 on an idle
 * machine (one rank per node, one switch: messages meet only at the NICs). Roots are rank 0.
 * The ranks then compute until well after the slowest one is done before they collect the
 * times, so that no message of the collection meets a rank still busy with the collective.
 * Prints the case and passes when the simulated time is within 1% of the formula.
 *
 * Messages do not queue at a NIC: concurrent flows share its link max-min fairly
 * (hardware/network/flow_network.hpp). k sends of s bytes that one rank posts back to back
 * (isend after isend, to ranks whose receives are posted) start flows o_s apart, and fan(k, j, s)
 * is the time from the first post to the j-th receive's completion (j from 0), in the two regimes
 * that have a closed form: w(s) <= o_s (each flow alone: h + j o_s) and w(s) >= o_s H(k - 1)
 * (H the harmonic numbers; every flow has started before the first one ends). In the second,
 * between the starts of flows i and i + 1 the i + 1 flows running get o_s/(i + 1) of service
 * each, so at the last start flow j leads flow j + 1 by o_s/(j + 1); the flows then end in
 * order, flow j + 1 making up that lead at the rate the k - j - 1 left share, and the link never
 * idles, so the last ends k w after the first started:
 *   F(k - 1) = k w, F(j) = F(j + 1) - (k - j - 1) o_s/(j + 1), fan = h - w + F(j).
 * Either way the last of the k is received at h + (k - 1) g. A case outside the regimes its
 * formula was derived for has no closed form (no_form), and fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static long long os_, or_, lat, eager, seg, throttle;
static double bw;
static int p;

static long long w(double s) {
  return llround(s / bw * 1e12);
}
static long long h(double s) {
  return os_ + (s > (double)eager ? 3 : 1) * lat + w(s) + or_;
}
static long long g(double s) {
  return w(s) > os_ ? w(s) : os_;
}
/* Gap between two blocking sends of one rank: a rendezvous send returns once its data is in. */
static long long gb(double s) {
  return s > (double)eager ? os_ + 3 * lat + w(s) : g(s);
}
static long long gap_w(double s) {
  return w(s);
}
static int lg(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}
static int is_pof2(int n) {
  return (n & (n - 1)) == 0;
}
static long long max2(long long a, long long b) {
  return a > b ? a : b;
}
static int no_form; /* set when a formula is used outside the regime it was derived for */

/* The j-th of k back-to-back sends of s bytes (see the top of the file). */
static long long fan(int k, int j, double s) {
  double harmonic = 0, f = k * (double)w(s);
  for (int i = 1; i < k; ++i) harmonic += 1.0 / i;
  if (w(s) <= os_) return h(s) + j * os_;
  if (w(s) < os_ * harmonic) no_form = 1; /* the first would end before the last starts */
  for (int i = j + 1; i < k; ++i) f -= (double)os_ * (k - i) / i;
  return h(s) - w(s) + llround(f);
}

/* Binomial broadcast (children farthest first), p = 2^k: at a rank serving c children the first
 * child's subtree (2^(c-1) ranks) ends last, since child j is served fan(c, j) - fan(c, 0) <=
 * j (c - 1) o_s later but has a subtree j levels shallower, each level costing at least h, and
 * h >= (c - 1) o_s here: T = sum_{c=1..k} fan(c, 0, S). */
static long long binomial_bcast(double s) {
  long long t = 0;
  for (int c = 1; c <= lg(p); ++c) t += fan(c, 0, s);
  return t;
}

/* The pipelined chain (bcast or reduce) of n segments of s bytes. w(s) <= o_s: every flow is
 * alone on its link, each hop adds h(s) and the segments follow o_s apart. Two eager segments
 * with w(s) > o_s: a hop's two flows start o_s apart and share the sender's link, so they are
 * received o_s apart, at fan(2, 0, s) = h + w - o_s and fan(2, 1, s), and forwarded o_s apart
 * again; every hop adds h + w - o_s, and the second segment arrives o_s after the first. More
 * segments with w(s) > o_s leave a link in an irregular pattern that every hop reshapes: no
 * closed form. */
static long long pipeline(double S, double s) {
  long long n = (long long)ceil(S / s);
  if (w(s) <= os_) return (p - 1) * h(s) + (n - 1) * os_;
  if (S == 2 * s && s <= (double)eager) return (p - 1) * fan(2, 0, s) + os_;
  no_form = 1;
  return 0;
}

/* The closed forms, for the cases the test uses; -1 when there is none for this case. */
static long long barrier_cost(const char* a) {
  long long h0 = os_ + lat + or_;
  if (!strcmp(a, "dissemination")) return lg(p) * h0;
  if (!strcmp(a, "recursive_doubling") && is_pof2(p)) return lg(p) * h0;
  if (!strcmp(a, "linear")) return h0 + (p - 1) * os_ + lat + or_;
  if (!strcmp(a, "tree") && is_pof2(p)) return 2 * lg(p) * h0;
  return -1;
}

static long long bcast_cost(const char* a, double S) {
  if (!strcmp(a, "linear")) return h(S) + (p - 2) * g(S);
  if (!strcmp(a, "binomial") && is_pof2(p)) return binomial_bcast(S);
  /* p = 5: the root's children 4, 2, 1 have subtrees of 1, 2, 1 ranks, and the second one's is
   * the longest path. p = 7: subtrees of 3, 2, 1 ranks; rank 4 serves two leaves. */
  if (!strcmp(a, "binomial") && p == 5) return fan(3, 1, S) + h(S);
  if (!strcmp(a, "binomial") && p == 7)
    return max2(fan(3, 0, S) + fan(2, 1, S), fan(3, 1, S) + h(S));
  if (!strcmp(a, "binary_tree") && is_pof2(p + 1)) return (lg(p + 1) - 1) * (h(S) + g(S));
  /* Radix 4, p = 4^m: a rank at level i serves 3i children, the first three with subtrees of
   * 4^(i-1) ranks; the third of those is served last and its path is the longest. */
  if (!strcmp(a, "knomial") && (p == 16 || p == 64)) {
    long long t = 0;
    for (int i = 1; i <= (p == 16 ? 2 : 3); ++i) t += fan(3 * i, 2, S);
    return t;
  }
  if (!strcmp(a, "chain") && (p - 1) % 4 == 0) return (p - 1) / 4 * h(S) + 3 * g(S);
  if (!strcmp(a, "pipeline") && seg) return pipeline(S, (double)seg);
  if (!strcmp(a, "split_binary_tree") && is_pof2(p + 1))
    return (lg(p + 1) - 1) * (h(S / 2) + gb(S / 2)) + h(S / 2);
  if (!strcmp(a, "scatter_allgather") && is_pof2(p)) {
    long long t = 0;
    for (int i = 1; i <= lg(p); ++i) t += h(S / (1 << i)) + h(S / p * (1 << (i - 1)));
    return t;
  }
  if (!strcmp(a, "scatter_ring_allgather") && is_pof2(p)) {
    long long t = 0;
    for (int i = 1; i <= lg(p); ++i) t += h(S / (1 << i));
    return t + (p - 1) * h(S / p);
  }
  return -1;
}

static long long reduce_cost(const char* a, double S) {
  if (!strcmp(a, "binomial") && is_pof2(p)) return lg(p) * h(S);
  if (!strcmp(a, "linear") && S <= eager) return os_ + lat + (p - 1) * (w(S) + or_);
  if (!strcmp(a, "linear")) return os_ + lat + (p - 1) * (2 * lat + w(S) + or_);
  if (!strcmp(a, "in_order_binary_tree") && is_pof2(p + 1))
    return (lg(p + 1) - 1) * (h(S) + gap_w(S)) + h(S); /* + the move from p - 1 to root 0 */
  if (!strcmp(a, "binary_tree") && is_pof2(p + 1)) return (lg(p + 1) - 1) * (h(S) + gap_w(S));
  /* Eager: the 4 chain heads send at once and share rank 0's link, all arriving 4w after; rank 0
   * keeps two receives posted, so the third and fourth complete o_r after the first two. */
  if (!strcmp(a, "chain") && (p - 1) % 4 == 0 && S <= eager)
    return (p - 1) / 4 * h(S) + 3 * w(S) + or_;
  if (!strcmp(a, "pipeline") && seg) return pipeline(S, (double)seg);
  if (!strcmp(a, "rabenseifner") && is_pof2(p)) {
    long long t = 0;
    for (int i = 1; i <= lg(p); ++i) t += 2 * h(S / (1 << i));
    return t;
  }
  return -1;
}

static long long allreduce_cost(const char* a, double S) {
  double b = S / p;
  if (!strcmp(a, "recursive_doubling") && is_pof2(p)) return lg(p) * h(S);
  if (!strcmp(a, "rabenseifner") && is_pof2(p)) {
    long long t = 0;
    for (int i = 1; i <= lg(p); ++i) t += 2 * h(S / (1 << i));
    return t;
  }
  if (!strcmp(a, "ring")) return 2 * (p - 1) * h(b);
  if (!strcmp(a, "segmented_ring") && seg) {
    double m = ceil(b / (double)seg);
    return (p - 1) * ((long long)m * h(b / m) + h(b));
  }
  if (!strcmp(a, "linear") && S <= eager)
    return os_ + lat + (p - 1) * (w(S) + or_) + h(S) + (p - 2) * g(S);
  /* The test forces the binomial reduce (Open MPI's in-order tree) and binomial broadcast. */
  if (!strcmp(a, "nonoverlapping") && is_pof2(p)) return lg(p) * h(S) + binomial_bcast(S);
  return -1;
}

static long long allgather_cost(const char* a, double b) {
  long long t = 0;
  if (!strcmp(a, "bruck")) {
    for (int k = 1; k < p; k <<= 1) t += h((k < p - k ? k : p - k) * b);
    return t;
  }
  if (!strcmp(a, "recursive_doubling") && is_pof2(p)) {
    for (int k = 1; k < p; k <<= 1) t += h(k * b);
    return t;
  }
  if (!strcmp(a, "ring")) return (p - 1) * h(b);
  if (!strcmp(a, "neighbor_exchange") && p % 2 == 0) return h(b) + (p / 2 - 1) * h(2 * b);
  if (!strcmp(a, "linear") && is_pof2(p) && b <= eager) /* gather, then binomial bcast */
    return os_ + lat + (p - 1) * w(b) + or_ + binomial_bcast(p * b);
  return -1;
}

static long long alltoall_cost(const char* a, double b) {
  if (!strcmp(a, "pairwise")) return (p - 1) * h(b);
  if (!strcmp(a, "linear") && b <= eager) return h(b) + (p - 2) * g(b);
  if (!strcmp(a, "bruck") && (is_pof2(p) || p == 7)) return lg(p) * h((is_pof2(p) ? p / 2 : 3) * b);
  if (!strcmp(a, "scattered") && b <= eager && throttle > 0 && (p - 1) % throttle == 0)
    return (p - 1) / throttle * (h(b) + (throttle - 1) * g(b));
  return -1;
}

static long long gather_cost(const char* a, double b) {
  if (!strcmp(a, "linear")) return h(b) - w(b) + (p - 1) * w(b);
  if (!strcmp(a, "binomial") && is_pof2(p)) {
    long long t = 0;
    for (int k = 1; k < p; k <<= 1) t += h(k * b);
    return t;
  }
  if (!strcmp(a, "linear_sync") && b <= eager) {
    long long extra = os_ > w(b) ? os_ - w(b) : 0;
    return (p - 1) * (2 * os_ + 2 * lat + w(b) + 2 * or_) + extra;
  }
  return -1;
}

static long long scatter_cost(const char* a, double b) {
  if (!strcmp(a, "linear_nb") || (!strcmp(a, "linear") && b <= eager)) return h(b) + (p - 2) * g(b);
  if (!strcmp(a, "linear")) return (p - 1) * (os_ + 3 * lat + w(b)) + or_;
  /* The path to rank p - 1 is the longest: its hops carry 2^i b (i = k-1 .. 0), each the first
   * of its sender's sends. An eager one that outlasts o_s shares the link with the next (half
   * as long, o_s later) and ends w - o_s late; w <= 1.5 o_s keeps the third send after it. */
  if (!strcmp(a, "binomial") && is_pof2(p)) {
    long long t = 0;
    for (int k = 1; k < p; k <<= 1) {
      double x = k * b;
      t += h(x);
      if (k == 1 || x > (double)eager || w(x) <= os_) continue;
      if (2 * w(x) > 3 * os_) no_form = 1;
      t += w(x) - os_;
    }
    return t;
  }
  return -1;
}

static long long reduce_scatter_cost(const char* a, double b) {
  double S = b * p;
  if (!strcmp(a, "recursive_halving") && is_pof2(p)) {
    long long t = 0;
    for (int i = 1; i <= lg(p); ++i) t += h(S / (1 << i));
    return t;
  }
  if (!strcmp(a, "pairwise") || !strcmp(a, "ring")) return (p - 1) * h(b);
  /* The test forces the binomial reduce of all p blocks to rank 0 and the linear_nb scatter. */
  if (!strcmp(a, "nonoverlapping") && is_pof2(p) && b <= eager)
    return lg(p) * h(S) + h(b) + (p - 2) * g(b);
  return -1;
}

static long long scan_cost(const char* a, double S) {
  if (!strcmp(a, "linear")) return (p - 1) * h(S);
  if (!strcmp(a, "recursive_doubling") && is_pof2(p)) return lg(p) * h(S);
  return -1;
}

/* Runs the collective once; returns its closed-form cost (-1: no formula for this case). */
static long long run(const char* coll, const char* algo, int bytes, char* a, char* b) {
  int n = bytes / 4 > 0 ? bytes / 4 : 1; /* MPI_INT elements of a reduction */
  int* counts = malloc(p * sizeof(int));
  for (int i = 0; i < p; ++i) counts[i] = n;
  long long cost = -1;
  if (!strcmp(coll, "barrier")) {
    MPI_Barrier(MPI_COMM_WORLD), cost = barrier_cost(algo);
  } else if (!strcmp(coll, "bcast")) {
    MPI_Bcast(a, bytes, MPI_BYTE, 0, MPI_COMM_WORLD), cost = bcast_cost(algo, bytes);
  } else if (!strcmp(coll, "reduce")) {
    MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), cost = reduce_cost(algo, 4.0 * n);
  } else if (!strcmp(coll, "allreduce")) {
    MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD), cost = allreduce_cost(algo, 4.0 * n);
  } else if (!strcmp(coll, "allgather")) {
    MPI_Allgather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
    cost = allgather_cost(algo, bytes);
  } else if (!strcmp(coll, "alltoall")) {
    MPI_Alltoall(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
    cost = alltoall_cost(algo, bytes);
  } else if (!strcmp(coll, "gather")) {
    MPI_Gather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    cost = gather_cost(algo, bytes);
  } else if (!strcmp(coll, "scatter")) {
    MPI_Scatter(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    cost = scatter_cost(algo, bytes);
  } else if (!strcmp(coll, "reduce_scatter_block")) {
    MPI_Reduce_scatter_block(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    cost = reduce_scatter_cost(algo, 4.0 * n);
  } else if (!strcmp(coll, "reduce_scatter")) {
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    cost = reduce_scatter_cost(algo, 4.0 * n);
  } else if (!strcmp(coll, "scan")) {
    MPI_Scan(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD), cost = scan_cost(algo, 4.0 * n);
  } else if (!strcmp(coll, "exscan")) {
    MPI_Exscan(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD), cost = scan_cost(algo, 4.0 * n);
  }
  free(counts);
  return no_form ? -1 : cost;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc < 11) {
    fprintf(stderr,
            "usage: coll_timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S EAGER_BYTES "
            "SEGMENT_BYTES THROTTLE COLLECTIVE ALGORITHM BYTES\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  os_ = atoll(argv[1]), or_ = atoll(argv[2]), lat = atoll(argv[3]), bw = atof(argv[4]);
  eager = atoll(argv[5]), seg = atoll(argv[6]), throttle = atoll(argv[7]);
  const char *coll = argv[8], *algo = argv[9];
  int bytes = atoi(argv[10]);
  char* a = calloc((size_t)bytes * p + 16, 1);
  char* b = calloc((size_t)bytes * p + 16, 1);
  long long start = llround(simmpi_now() * 1e12);
  long long cost = run(coll, algo, bytes, a, b);
  long long end = llround(simmpi_now() * 1e12), last = 0, latest_start = 0;
  while (simmpi_now() * 1e12 < 4.0 * (double)cost + 1e7) MPI_Wtime(); /* 4x the formula + 10 us */
  MPI_Reduce(&end, &last, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&start, &latest_start, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    double err = cost > 0 ? 100.0 * (double)(last - cost) / (double)cost : 100;
    printf("coll_timing: %s %s p=%d bytes=%d formula_ps=%lld simulated_ps=%lld error=%.4f%%\n",
           coll, algo, p, bytes, cost, last, err);
    CHECK(latest_start == 0, "every rank starts at time 0, latest at %lld ps", latest_start);
    CHECK(cost > 0, "a closed form exists for this case");
    CHECK(fabs(err) <= 1.0, "simulated %lld ps, closed form %lld ps (%.4f%%)", last, cost, err);
  }
  free(a);
  free(b);
  return finish("coll_timing");
}
