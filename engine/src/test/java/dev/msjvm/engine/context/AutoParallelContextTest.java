package dev.msjvm.engine.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AutoParallelContextTest {
  @Test
  void defaultsFollowTheSeedDocuments() {
    AutoParallelContext c = new AutoParallelContext();
    assertEquals("stand_alone", c.parallelMode());
    assertEquals("dynamic_programming", c.searchMode());
    assertEquals(1L, c.deviceNum());
    assertFalse(c.deviceNumIsSet());
    assertEquals(1L, c.pipelineStages());
  }

  @Test
  void setterMarksIsSetAndResetClearsEverything() {
    AutoParallelContext c = new AutoParallelContext();
    c.set("device_num", 8);
    c.set("full_batch", true);
    assertEquals(8L, c.deviceNum());
    assertTrue(c.deviceNumIsSet());
    assertEquals(true, c.get("full_batch_is_set"));
    c.reset();
    assertEquals(1L, c.deviceNum());
    assertFalse(c.deviceNumIsSet());
    assertEquals(false, c.get("full_batch_is_set"));
  }

  @Test
  void enumLikeSettersRefuseUnknownNamesWithoutChanging() {
    AutoParallelContext c = new AutoParallelContext();
    assertTrue(c.setParallelMode("semi_auto_parallel"));
    assertFalse(c.setParallelMode("semi_auto"));
    assertEquals("semi_auto_parallel", c.parallelMode());
    assertFalse(c.setStrategySearchMode("greedy"));
    assertTrue(c.setStrategySearchMode("sharding_propagation"));
    assertEquals("sharding_propagation", c.searchMode());
    assertFalse(c.setCommuniParallelMode("ALL_GROUP_PARALLEL"));
  }

  @Test
  void shardingPropagationFlagSelectsThatSearch() {
    AutoParallelContext c = new AutoParallelContext();
    c.set("sharding_propagation", true);
    assertEquals("sharding_propagation", c.searchMode());
    assertEquals("dynamic_programming", c.get("strategy_search_mode"));
  }

  @Test
  void boolsStoredInIntegerSettingsReadBackAsIntegers() {
    AutoParallelContext c = new AutoParallelContext();
    c.set("device_num", true);
    assertEquals(1L, c.get("device_num"));
  }

  @Test
  void fusionSettingsTurnTheirFusionOn() {
    AutoParallelContext c = new AutoParallelContext();
    assertEquals(false, c.get("enable_all_reduce_fusion"));
    c.setAllReduceFusionSplitIndices(List.of(8, 160), "nccl_world_groupsum1");
    assertEquals(true, c.get("enable_all_reduce_fusion"));
    assertEquals(List.of(8L, 160L), c.allReduceFusionSplitIndices("nccl_world_groupsum1"));
    assertEquals(List.of(), c.allReduceFusionSplitIndices("other"));
    c.set("allgather_fusion_threshold_mb", 32);
    assertEquals(true, c.get("enable_all_gather_fusion"));
  }

  @Test
  void storedListsAreImmutableCopies() {
    AutoParallelContext c = new AutoParallelContext();
    List<Object> strategy = new java.util.ArrayList<>(List.of(List.of(1, 8)));
    c.set("dataset_strategy", strategy);
    strategy.clear();
    assertEquals(List.of(List.of(1L, 8L)), c.get("dataset_strategy"));
    assertThrows(
        UnsupportedOperationException.class, () -> ((List<?>) c.get("dataset_strategy")).clear());
  }

  @Test
  void unknownNamesAreShimBugs() {
    AutoParallelContext c = new AutoParallelContext();
    assertThrows(IllegalArgumentException.class, () -> c.set("devices", 8));
    assertThrows(IllegalArgumentException.class, () -> c.get("devices"));
  }
}
