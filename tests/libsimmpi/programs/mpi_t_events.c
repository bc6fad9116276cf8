/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_T events (MPI-4.1 15.3.8) as a tool uses them: the event types and the one source (the
 * simulated clock), a callback on rank 0 for every message that arrives unexpected (each other
 * rank sends one while rank 0 waits in a barrier: exactly size-1 events, none for the
 * barrier's own messages, in time order, with the source, tag and size sent), a second
 * registration whose queue holds one event (the rest go to its dropped handler), the
 * collective-algorithm event of an MPI_Bcast, and the free callback. */
#include <string.h>

#include "check.h"

#define MAX_EVENTS 64

struct seen {
  int count;
  int source[MAX_EVENTS], tag[MAX_EVENTS];
  MPI_Count bytes[MAX_EVENTS], time[MAX_EVENTS];
};
static struct seen unexpected, bounded;
static MPI_Count dropped;
static int frees, bcasts, bcast_size;
static MPI_Count bcast_bytes;

static void on_unexpected(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                          void* user_data) {
  struct seen* seen = user_data;
  struct {
    int source, tag;
    MPI_Count bytes;
  } copy;
  int source = -1, src_index = -1;
  (void)r;
  CHECK(s == MPI_T_CB_REQUIRE_NONE, "called at safety level %d", s);
  if (seen->count >= MAX_EVENTS) return;
  int i = seen->count++;
  MPI_T_event_read(e, 0, &source);
  MPI_T_event_read(e, 1, &seen->tag[i]);
  MPI_T_event_read(e, 2, &seen->bytes[i]);
  MPI_T_event_get_timestamp(e, &seen->time[i]);
  MPI_T_event_get_source(e, &src_index);
  MPI_T_event_copy(e, &copy);
  seen->source[i] = source;
  CHECK(copy.source == source && copy.tag == seen->tag[i] && copy.bytes == seen->bytes[i],
        "event_copy gave %d %d %lld, event_read %d %d %lld", copy.source, copy.tag, copy.bytes,
        source, seen->tag[i], seen->bytes[i]);
  CHECK(src_index == 0, "source index %d", src_index);
}

static void on_dropped(MPI_Count count, MPI_T_event_registration r, int source, MPI_T_cb_safety s,
                       void* user_data) {
  (void)r, (void)s, (void)user_data;
  CHECK(source == 0, "dropped from source %d", source);
  dropped += count;
}

static void on_free(MPI_T_event_registration r, MPI_T_cb_safety s, void* user_data) {
  (void)r, (void)s;
  CHECK(user_data == &frees, "free callback's user data");
  frees++;
}

static void on_collective(MPI_T_event_instance e, MPI_T_event_registration r, MPI_T_cb_safety s,
                          void* user_data) {
  int coll = -1, algo = -1, n = -1;
  MPI_Count bytes = -1;
  (void)r, (void)s, (void)user_data;
  MPI_T_event_read(e, 0, &coll);
  MPI_T_event_read(e, 1, &algo);
  MPI_T_event_read(e, 2, &n);
  MPI_T_event_read(e, 3, &bytes);
  if (coll != 1) return; /* 1: bcast */
  bcasts++;
  bcast_size = n;
  bcast_bytes = bytes;
  CHECK(algo > 0, "the bcast's algorithm is %d (auto)", algo);
}

static void check_types(void) {
  int num = -1, index = -1, n = 8, bind = -1, len = 64;
  char name[64];
  MPI_Datatype types[8];
  MPI_Aint displs[8];
  MPI_T_event_get_num(&num);
  CHECK(num == 2, "%d event types", num);
  CHECK(MPI_T_event_get_index("unexpected_message", &index) == MPI_SUCCESS && index == 0,
        "unexpected_message has index %d", index);
  CHECK(MPI_T_event_get_index("no_such_event", &index) == MPI_T_ERR_INVALID_NAME,
        "an unknown event name was found");
  MPI_T_event_get_info(0, name, &len, NULL, types, displs, &n, NULL, NULL, NULL, NULL, &bind);
  CHECK(strcmp(name, "unexpected_message") == 0 && n == 3 && types[0] == MPI_INT &&
            types[1] == MPI_INT && types[2] == MPI_COUNT && displs[1] == sizeof(int) &&
            bind == MPI_T_BIND_NO_OBJECT,
        "event 0: %s, %d elements", name, n);
  CHECK(MPI_T_event_get_info(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
            MPI_T_ERR_INVALID_INDEX,
        "event index 2 is valid");
  MPI_T_category_get_num_events(0, &num);
  CHECK(num == 2, "category 0 has %d events", num);
  MPI_T_source_order order = -1;
  MPI_Count ticks = 0, t0 = -1, t1 = -1;
  MPI_T_source_get_num(&num);
  MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &ticks, NULL, NULL);
  CHECK(num == 1 && order == MPI_T_SOURCE_ORDERED && ticks == 1000000000000LL,
        "%d sources, ordering %d, %lld ticks/s", num, order, ticks);
  MPI_T_source_get_timestamp(0, &t0);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  double wtime_ps = MPI_Wtime() * 1e12;
  MPI_T_source_get_timestamp(0, &t1);
  CHECK(t1 >= t0 && (double)t1 >= wtime_ps - 1 && (double)t1 <= wtime_ps + 1e6,
        "clock %lld then %lld, MPI_Wtime %.0f ps", t0, t1, wtime_ps);
}

int main(int argc, char** argv) {
  int provided, rank, size;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_types();

  MPI_T_event_registration all = NULL, one = NULL, coll = NULL;
  if (rank == 0) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "simmpi_queue_length", "1");
    MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &all);
    MPI_T_event_register_callback(all, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, &unexpected,
                                  on_unexpected);
    MPI_T_event_handle_alloc(0, NULL, info, &one);
    MPI_T_event_register_callback(one, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &bounded,
                                  on_unexpected);
    MPI_T_event_set_dropped_handler(one, on_dropped);
    MPI_Info_free(&info);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int data[MAX_EVENTS];
  if (rank > 0) MPI_Send(data, rank, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 1; r < size; ++r)
      MPI_Recv(data, MAX_EVENTS, MPI_INT, r, 100 + r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Count now = 0;
    MPI_T_source_get_timestamp(0, &now);
    int expected = size - 1 < MAX_EVENTS ? size - 1 : MAX_EVENTS;
    CHECK(unexpected.count == expected, "%d unexpected-message events, expected %d",
          unexpected.count, expected);
    int sum = 0;
    for (int i = 0; i < unexpected.count; ++i) {
      int s = unexpected.source[i];
      sum += s;
      CHECK(unexpected.tag[i] == 100 + s && unexpected.bytes[i] == (MPI_Count)(s * sizeof(int)),
            "event %d: source %d tag %d bytes %lld", i, s, unexpected.tag[i], unexpected.bytes[i]);
      CHECK(i == 0 || unexpected.time[i] >= unexpected.time[i - 1],
            "event %d at %lld ps, before event %d at %lld", i, unexpected.time[i], i - 1,
            unexpected.time[i - 1]);
      CHECK(unexpected.time[i] > 0 && unexpected.time[i] <= now, "event %d at %lld, now %lld", i,
            unexpected.time[i], now);
    }
    CHECK(sum == size * (size - 1) / 2, "the sources add up to %d", sum);
    CHECK(bounded.count == (size > 1) && bounded.count + dropped == size - 1,
          "the one-event queue delivered %d and dropped %lld of %d", bounded.count, dropped,
          size - 1);
    MPI_T_event_handle_free(all, &frees, on_free);
    MPI_T_event_handle_free(one, &frees, on_free);
    CHECK(frees == 2, "%d free callbacks", frees);
    CHECK(MPI_T_event_handle_free(all, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE,
          "a freed registration was freed again");
  }

  MPI_T_event_handle_alloc(1, NULL, MPI_INFO_NULL, &coll);
  MPI_T_event_register_callback(coll, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, on_collective);
  double x = rank == 0 ? 2.5 : 0;
  MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  CHECK(x == 2.5, "bcast gave %g", x);
  if (size > 1)
    CHECK(bcasts >= 1 && bcast_size == size && bcast_bytes == 8,
          "%d bcast events, last of %d ranks and %lld bytes", bcasts, bcast_size, bcast_bytes);
  MPI_T_event_handle_free(coll, NULL, NULL);
  MPI_T_finalize();
  int num;
  CHECK(MPI_T_event_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED, "MPI_T works after finalize");
  return finish("mpi_t_events");
}
