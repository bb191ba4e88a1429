// Bank timing of one DRAM channel, exactly: row hits, misses and conflicts, FR-FCFS,
// tCCD_S / tCCD_L, write-to-read turnaround and refresh.
//
// Rig: 64-bit bus at 2000 MT/s (1 GHz DRAM clock, 16 bytes per ns: a 32-byte sector
// holds the bus 2 ns), latency_ns 100. Two bank groups of two banks, 1 KiB rows
// (8 lines of 128 bytes), "row_column_bank": line L has group L % 2, bank index
// 2 * (L % 2) + L / 2 % 2, column L / 4 % 8, row L / 32.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dram_rig.h"
#include "ground/error.h"

namespace sassim::memsys {
namespace {

using testing::ChannelRig;

constexpr Picos kNs = 1000;
constexpr Picos kRcd = 10 * kNs, kRp = 12 * kNs, kRas = 30 * kNs, kCl = 14 * kNs, kWl = 4 * kNs,
                kCcdS = 3 * kNs, kCcdL = 7 * kNs, kWtr = 6 * kNs, kLatency = 100 * kNs;

// Sets the bank structure and timing above on rig's config and rebuilds the channel.
void set_timing(ChannelRig& rig) {
  config::DramConfig& d = rig.dram;
  d.set_bank_groups(2);
  d.set_banks_per_group(2);
  d.set_row_bytes(1024);
  d.set_address_scheme("row_column_bank");
  d.set_t_rcd_ns(10);
  d.set_t_rp_ns(12);
  d.set_t_ras_ns(30);
  d.set_t_cl_ns(14);
  d.set_t_wl_ns(4);
  d.set_t_wr_ns(8);
  d.set_t_ccd_s_ns(3);
  d.set_t_ccd_l_ns(7);
  d.set_t_rtw_ns(9);
  d.set_t_wtr_ns(6);
  rig.build();
}

TEST(DramTiming, ReadToAClosedBankCostsRcdPlusCl) {
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 1000);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 1u);
  EXPECT_EQ(fills[0].ready_ps, 1000 + kRcd + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_misses(), 1u);
  EXPECT_EQ(rig.channel->row_hits(), 0u);
  EXPECT_EQ(rig.channel->row_conflicts(), 0u);
}

TEST(DramTiming, ReadToTheOpenRowCostsCl) {
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0);
  rig.send(4, 200 * kNs);  // bank 0, row 0, column 1: the row line 0 opened
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 2u);
  EXPECT_EQ(fills[1].line, 4u);
  EXPECT_EQ(fills[1].ready_ps, 200 * kNs + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_hits(), 1u);
  EXPECT_EQ(rig.channel->row_misses(), 1u);
}

TEST(DramTiming, RowConflictCostsRpPlusRcdPlusCl) {
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0);
  rig.send(32, 200 * kNs);  // bank 0, row 1
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 2u);
  EXPECT_EQ(fills[1].line, 32u);
  EXPECT_EQ(fills[1].ready_ps, 200 * kNs + kRp + kRcd + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_conflicts(), 1u);
}

TEST(DramTiming, PrechargeWaitsForRas) {
  // The conflicting read arrives 1 ns after the ACT: PRE waits until ACT + tRAS.
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0);
  rig.send(32, 1 * kNs);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 2u);
  EXPECT_EQ(fills[0].ready_ps, kRcd + kCl + kLatency);
  EXPECT_EQ(fills[1].ready_ps, kRas + kRp + kRcd + kCl + kLatency);
}

TEST(DramTiming, FrFcfsServesAYoungerRowHitBeforeAnOlderMiss) {
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0);           // opens row 0 of bank 0
  rig.send(32, 100 * kNs);  // older: row 1 of bank 0 (a conflict)
  rig.send(4, 100 * kNs);   // younger: row 0 of bank 0 (a hit)
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 3u);
  EXPECT_EQ(fills[1].line, 4u);
  EXPECT_EQ(fills[1].ready_ps, 100 * kNs + kCl + kLatency);
  EXPECT_EQ(fills[2].line, 32u);
  // PRE right after the hit's column command, then ACT, then the column access.
  EXPECT_EQ(fills[2].ready_ps, 100 * kNs + kRp + kRcd + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_hits(), 1u);
  EXPECT_EQ(rig.channel->row_misses(), 1u);
  EXPECT_EQ(rig.channel->row_conflicts(), 1u);
}

TEST(DramTiming, ColumnCommandsAreCcdLongInOneBankGroupAndCcdShortAcross) {
  // Lines 0 and 4 share bank 0 (group 0), line 1 is in group 1; all sent at 0, both
  // rows open at tRCD. Columns: line 0 at tRCD, line 1 tCCD_S later, line 4 tCCD_L
  // after line 0 (a 32-byte sector holds the bus only 2 ns, less than either).
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0);
  rig.send(4, 0);
  rig.send(1, 0);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 3u);
  EXPECT_EQ(fills[0].line, 0u);
  EXPECT_EQ(fills[0].ready_ps, kRcd + kCl + kLatency);
  EXPECT_EQ(fills[1].line, 1u);
  EXPECT_EQ(fills[1].ready_ps, kRcd + kCcdS + kCl + kLatency);
  EXPECT_EQ(fills[2].line, 4u);
  EXPECT_EQ(fills[2].ready_ps, kRcd + kCcdL + kCl + kLatency);
}

TEST(DramTiming, ReadAfterWriteWaitsForTheWriteDataPlusWtr) {
  // Write line 0 (bank 0) at 0: column at tRCD, data tWL later for 2 ns. A read of
  // line 4 (the same open row) sent just after the write's column command waits until
  // the end of the write data + tWTR (later than tCCD_L after the write).
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.send(0, 0, /*write=*/true);
  rig.send(4, kRcd + 1 * kNs);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 1u);
  EXPECT_EQ(fills[0].ready_ps, kRcd + kWl + 2 * kNs + kWtr + kCl + kLatency);
  EXPECT_EQ(rig.channel->write_bytes(), 32u);
  EXPECT_EQ(rig.channel->row_hits(), 1u);
}

TEST(DramTiming, RefreshHoldsCommandsAndClosesRows) {
  // Every 1000 ns the channel refreshes for 100 ns. A read sent at 10 ns waits until
  // 100 ns to activate; a read of the same row sent after the next refresh misses.
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.dram.set_t_refi_ns(1000);
  rig.dram.set_t_rfc_ns(100);
  rig.build();
  rig.send(0, 10 * kNs);
  rig.send(4, 1500 * kNs);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 2u);
  EXPECT_EQ(fills[0].ready_ps, 100 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(fills[1].ready_ps, 1500 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_misses(), 2u);
  EXPECT_EQ(rig.channel->row_hits(), 0u);
}

TEST(DramTiming, PerBankRefreshHoldsOnlyTheBankRefreshed) {
  // Every 1000 ns each bank refreshes alone for 100 ns, bank b of 4 from b x 250 ns:
  // bank 0 (line 0) in [0, 100), bank 1 (line 2) in [250, 350), bank 2 (line 1) in
  // [500, 600), bank 3 (line 3) in [750, 850).
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.dram.set_t_refi_ns(1000);
  rig.dram.set_t_rfc_ns(400);  // unused with per-bank refresh
  rig.dram.set_t_rfc_pb_ns(100);
  rig.build();
  rig.send(0, 10 * kNs);   // bank 0 is refreshing: ACT at 100 ns
  rig.send(2, 10 * kNs);   // bank 1 is not: ACT at once
  rig.send(1, 20 * kNs);   // bank 2 likewise
  rig.send(1, 400 * kNs);  // bank 2's row is still open: a hit
  rig.send(2, 400 * kNs);  // bank 1's refresh at 250 ns closed its row: a miss
  rig.send(3, 760 * kNs);  // bank 3 is refreshing: ACT at 850 ns
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 6u);
  EXPECT_EQ(fills[0].line, 2u);
  EXPECT_EQ(fills[0].ready_ps, 10 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(fills[1].line, 1u);
  EXPECT_EQ(fills[1].ready_ps, 20 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(fills[2].line, 0u);
  EXPECT_EQ(fills[2].ready_ps, 100 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(fills[3].line, 1u);
  EXPECT_EQ(fills[3].ready_ps, 400 * kNs + kCl + kLatency);
  EXPECT_EQ(fills[4].line, 2u);
  EXPECT_EQ(fills[4].ready_ps, 400 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(fills[5].line, 3u);
  EXPECT_EQ(fills[5].ready_ps, 850 * kNs + kRcd + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_hits(), 1u);
  EXPECT_EQ(rig.channel->row_misses(), 5u);
}

TEST(DramRefreshSlots, AreAPermutationNotInIndexOrder) {
  // 192 channels (h200): every slot once, channel 0 in slot 0, and successive channels
  // seldom in successive slots (index order would make all 191 pairs successive).
  constexpr std::uint32_t kChannels = 192;
  std::vector<int> taken(kChannels, 0);
  std::uint32_t successive = 0;
  for (std::uint32_t k = 0; k < kChannels; ++k) {
    const std::uint32_t slot = refresh_slot(k, kChannels);
    ASSERT_LT(slot, kChannels);
    ++taken[slot];
    if (k > 0 && slot == refresh_slot(k - 1, kChannels) + 1) ++successive;
  }
  EXPECT_EQ(refresh_slot(0, kChannels), 0u);
  EXPECT_EQ(std::count(taken.begin(), taken.end(), 1), kChannels);
  EXPECT_LT(successive, 8u);
  EXPECT_EQ(refresh_slot(0, 1), 0u);
}

TEST(DramTiming, RowBankColumnPutsARowsLinesInOneBank) {
  // "row_bank_column": lines 0..7 are the columns of row 0 of bank 0, so line 1 is a
  // row hit in the same bank group (tCCD_L after line 0), and line 8 is bank group 1.
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.dram.set_address_scheme("row_bank_column");
  rig.build();
  rig.send(0, 0);
  rig.send(1, 0);
  rig.send(8, 0);
  const auto fills = rig.run_and_collect_fills();
  ASSERT_EQ(fills.size(), 3u);
  EXPECT_EQ(fills[1].line, 8u);
  EXPECT_EQ(fills[1].ready_ps, kRcd + kCcdS + kCl + kLatency);
  EXPECT_EQ(fills[2].line, 1u);
  EXPECT_EQ(fills[2].ready_ps, kRcd + kCcdL + kCl + kLatency);
  EXPECT_EQ(rig.channel->row_hits(), 1u);
  EXPECT_EQ(rig.channel->row_misses(), 2u);
}

TEST(DramTiming, UnknownAddressSchemeNamesTheField) {
  ChannelRig rig(2000, 64, 16);
  set_timing(rig);
  rig.dram.set_address_scheme("bank_row");
  try {
    rig.build();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dram.address_scheme"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sassim::memsys
