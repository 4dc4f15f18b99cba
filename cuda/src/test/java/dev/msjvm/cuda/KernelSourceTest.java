package dev.msjvm.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.Binary;
import dev.msjvm.engine.backend.Unary;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class KernelSourceTest {

  private static final String SOURCE = KernelSource.source();

  @Test
  void definesEveryKernelTheBackendLooksUpExactlyOnceAndNothingElse() {
    Matcher m = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(").matcher(SOURCE);
    List<String> defined = m.results().map(r -> r.group(1)).toList();
    assertEquals(KernelSource.names(), defined);
    assertEquals(defined.size(), new HashSet<>(defined).size());
  }

  @Test
  void everyOperatorsDeclaredExpressionIsInItsKernel() {
    for (Unary op : Unary.values()) {
      String body = body(KernelSource.mapName(op));
      assertTrue(body.contains("out[i] = " + op.cudaExpression() + ";"), op + ": " + body);
    }
    for (Binary op : Binary.values()) {
      assertTrue(body(KernelSource.zipName(op)).contains(op.cudaExpression()), op.name());
      assertTrue(body(KernelSource.zipRowName(op)).contains("b = row[i % cols]"), op.name());
    }
  }

  @Test
  void bracesBalanceAndNoHostOnlyConstantsAreUsed() {
    int depth = 0;
    for (char c : SOURCE.toCharArray()) {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      assertTrue(depth >= 0);
    }
    assertEquals(0, depth);
    // NVRTC compiles without the system headers: INFINITY, NAN and std:: are not defined there.
    for (String hostOnly : new String[] {"INFINITY", "NAN", "std::", "#include"}) {
      assertTrue(!SOURCE.contains(hostOnly), hostOnly);
    }
  }

  private static String body(String kernel) {
    int at = SOURCE.indexOf("void " + kernel + "(");
    return SOURCE.substring(at, SOURCE.indexOf("\n}\n", at));
  }
}
