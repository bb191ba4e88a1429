// Timed queues, delay lines, links and the ring buffer under them.
#include <gtest/gtest.h>

#include "ground/delay_line.h"
#include "ground/link.h"
#include "ground/ring_buffer.h"
#include "ground/timed_queue.h"

namespace sassim::memsys {
namespace {

TEST(RingBuffer, GrowsKeepingFifoOrder) {
  RingBuffer<int> ring(2);
  for (int i = 0; i < 3; ++i) ring.push_back(i);
  EXPECT_EQ(ring.pop_front(), 0);
  for (int i = 3; i < 40; ++i) ring.push_back(i);  // wraps, then grows twice
  ASSERT_EQ(ring.size(), 39u);
  EXPECT_EQ(ring.back(), 39);
  for (int i = 1; i < 40; ++i) EXPECT_EQ(ring.pop_front(), i);
  EXPECT_TRUE(ring.empty());
}

TEST(TimedQueue, EntryIsVisibleFromItsReadyTimeAndNeverInTheEdgeItWasPushed) {
  TimedQueue<int> q(2);
  q.push(1, 1000, 1000);  // ready now: visible from 1001
  q.push(2, 1000, 5000);
  EXPECT_TRUE(q.full());
  EXPECT_FALSE(q.ready(1000));
  EXPECT_TRUE(q.ready(1001));
  EXPECT_EQ(q.pop(), 1);
  EXPECT_FALSE(q.ready(4999));
  EXPECT_EQ(q.front_ready_ps(), 5000u);
}

TEST(TimedQueue, LaterPushNeverOvertakes) {
  TimedQueue<int> q(4);
  q.push(1, 0, 9000);
  q.push(2, 0, 3000);
  EXPECT_EQ(q.pop(), 1);
  EXPECT_EQ(q.front_ready_ps(), 9000u);
}

TEST(Link, PushRingsTheReceiversDoorbell) {
  Doorbell bell;
  Link<int> link(4, &bell);
  link.push(1, 100, 7000);
  EXPECT_EQ(bell.earliest_ps(), 7000u);
  link.push(2, 200, 200);  // clamped to 201, then held behind the first entry
  EXPECT_EQ(bell.earliest_ps(), 201u);
}

TEST(DelayLine, ValueMayLeaveInTheEdgeItEntered) {
  DelayLine<int> line;
  line.push(5, 1000);
  EXPECT_TRUE(line.ready(1000));
  EXPECT_EQ(line.pop(), 5);
}

}  // namespace
}  // namespace sassim::memsys
