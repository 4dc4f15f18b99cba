package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;

/**
 * A strategy MindSpore refuses: the RuntimeError {@code Failure:operator <Name> init failed}
 * ({@code StrategyUtils::ExtractStrategyAndInit}), whose message adds, on a second line, the reason
 * MindSpore only logs ({@code <Name>Info: ...}, the texts of {@code operator_info.cc} and the op's
 * {@code *_info.cc}).
 *
 * <p>Example message: {@code Failure:operator MatMul init failed\nMatMulInfo: The strategy is ((2,
 * 4),), strategy size: 1 is not equal to inputs size: 2}.
 */
public final class ShardingException extends MsException {
  private final String op;
  private final String detail;

  public ShardingException(String op, String detail) {
    super(Kind.RUNTIME_ERROR, "Failure:operator " + op + " init failed\n" + op + "Info: " + detail);
    this.op = op;
    this.detail = detail;
  }

  public String op() {
    return op;
  }

  /** The logged reason without the {@code <Name>Info: } prefix. */
  public String detail() {
    return detail;
  }
}
