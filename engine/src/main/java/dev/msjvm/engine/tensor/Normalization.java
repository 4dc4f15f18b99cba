package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's {@code BatchNorm} and {@code LayerNorm} forward kernels and their gradients ({@code
 * BatchNormGrad}, {@code LayerNormGrad}).
 *
 * <p>BatchNorm normalises per channel (dimension 1) over all other dimensions of an {@code [N, C]},
 * {@code [N, C, L]} (as {@code nn.BatchNorm1d} feeds it in training) or {@code [N, C, H, W]} input.
 * In training it normalises with the batch mean and the biased batch variance and updates the
 * moving statistics with the primitive's momentum convention, {@code moving = (1 - momentum) *
 * moving + momentum * batch} (so {@code nn.BatchNorm2d}'s {@code momentum=0.9} is the primitive's
 * 0.1). The moving variance takes the unbiased batch variance ({@code var * m/(m-1)}, {@code m} the
 * elements per channel), as MindSpore 2.10's CPU kernel does (measured: the {@code nn_layers_norm}
 * conformance case) and cuDNN does; an overload takes the biased one instead. LayerNorm normalises
 * over dimensions {@code [beginNormAxis, rank)} and scales by {@code gamma}/{@code beta} of shape
 * {@code x.shape[beginParamsAxis:]}; it returns the mean and {@code rstd = 1/sqrt(var + eps)} with
 * the normalised dimensions kept as 1 (MindSpore 2.x's outputs). Statistics are computed in double;
 * outputs take the input's type (statistics the scale's/gamma's type). Example: {@code
 * layerNorm([[1, 3]], gamma=[1, 1], beta=[0, 0], 1, 1, 0)} gives {@code y = [[-1, 1]]}, mean {@code
 * [[2]]}, rstd {@code [[1]]}.
 */
public final class Normalization {
  private Normalization() {}

  /** BatchNorm's outputs: {@code y}, the batch statistics used, and the updated moving ones. */
  public record BatchNormResult(
      Tensor y, Tensor batchMean, Tensor batchVariance, Tensor movingMean, Tensor movingVariance) {}

  /** The gradients of a normalisation with respect to its input, scale/gamma and bias/beta. */
  public record NormGrads(Tensor dx, Tensor dscale, Tensor dbias) {}

  /** LayerNorm's outputs: {@code y}, and the mean and rstd of each normalised group (kept dims). */
  public record LayerNormResult(Tensor y, Tensor mean, Tensor rstd) {}

  /**
   * {@code BatchNorm(x, scale, bias, mean, variance)}. In training the batch statistics normalise
   * and the moving ones are updated; otherwise {@code mean}/{@code variance} normalise and come
   * back unchanged as both batch and moving statistics.
   */
  public static BatchNormResult batchNorm(
      Tensor x,
      Tensor scale,
      Tensor bias,
      Tensor movingMean,
      Tensor movingVariance,
      boolean training,
      double epsilon,
      double momentum) {
    return batchNorm(
        x, scale, bias, movingMean, movingVariance, training, epsilon, momentum, true, Sums.LOCAL);
  }

  /**
   * Sums of per-channel values across the ranks holding blocks of one batch (SyncBatchNorm's
   * AllReduce); {@link #LOCAL} on one rank.
   */
  @FunctionalInterface
  public interface Sums {
    /** {@code values} summed element-wise over the ranks (may be {@code values} itself). */
    double[] acrossRanks(double[] values);

    Sums LOCAL = v -> v;
  }

  /**
   * BatchNorm on one block of a batch split over ranks; {@code unbiasedMovingVariance}: the moving
   * variance takes {@code var * m/(m-1)} (MindSpore's behaviour) rather than the biased batch
   * variance. In training the statistics are those of the whole batch, the per-channel sums and
   * counts combined by {@code sums} (the mean first, then the squared deviations from it, as one
   * rank computes them), so every rank normalises and updates the moving statistics as a
   * stand-alone run would.
   */
  public static BatchNormResult batchNorm(
      Tensor x,
      Tensor scale,
      Tensor bias,
      Tensor movingMean,
      Tensor movingVariance,
      boolean training,
      double epsilon,
      double momentum,
      boolean unbiasedMovingVariance,
      Sums sums) {
    batchNormType(x.type(), scale.type(), bias.type(), movingMean.type(), movingVariance.type());
    int[] d = channels("BatchNorm", x.type(), scale.type());
    int c = d[1];
    int inner = d[2];
    double m = (double) d[0] * inner;
    double[] mean = new double[c];
    double[] var = new double[c];
    if (training) {
      double[] total = new double[c + 1];
      for (int ch = 0; ch < c; ch++) {
        double s = 0;
        for (int i : channelIndices(d, ch)) {
          s += x.getDouble(i);
        }
        total[ch] = s;
      }
      total[c] = m;
      total = sums.acrossRanks(total);
      m = total[c];
      double[] squares = new double[c];
      for (int ch = 0; ch < c; ch++) {
        mean[ch] = m == 0 ? 0 : total[ch] / m;
        double q = 0;
        for (int i : channelIndices(d, ch)) {
          double v = x.getDouble(i) - mean[ch];
          q += v * v;
        }
        squares[ch] = q;
      }
      squares = sums.acrossRanks(squares);
      for (int ch = 0; ch < c; ch++) {
        var[ch] = m == 0 ? 0 : squares[ch] / m;
      }
    } else {
      for (int ch = 0; ch < c; ch++) {
        mean[ch] = movingMean.getDouble(ch);
        var[ch] = movingVariance.getDouble(ch);
      }
    }
    Tensor y = Tensor.zeros(x.dtype(), x.shape());
    for (int ch = 0; ch < c; ch++) {
      double rstd = 1 / Math.sqrt(var[ch] + epsilon);
      double sc = scale.getDouble(ch);
      double b = bias.getDouble(ch);
      for (int i : channelIndices(d, ch)) {
        y.setDouble(i, (x.getDouble(i) - mean[ch]) * rstd * sc + b);
      }
    }
    Tensor bm = vector(scale, mean);
    Tensor bv = vector(scale, var);
    if (!training) {
      return new BatchNormResult(y, bm, bv, movingMean, movingVariance);
    }
    double[] newMean = new double[c];
    double[] newVar = new double[c];
    // A single element per channel has no unbiased variance: keep the biased one (0) rather than
    // dividing by zero.
    double unbias = unbiasedMovingVariance && m > 1 ? m / (m - 1) : 1;
    for (int ch = 0; ch < c; ch++) {
      newMean[ch] = (1 - momentum) * movingMean.getDouble(ch) + momentum * mean[ch];
      newVar[ch] = (1 - momentum) * movingVariance.getDouble(ch) + momentum * var[ch] * unbias;
    }
    return new BatchNormResult(
        y, bm, bv, vector(movingMean, newMean), vector(movingVariance, newVar));
  }

  /**
   * {@code BatchNormGrad(dy, x, scale, saveMean, saveVariance)}: in training {@code saveMean}/
   * {@code saveVariance} are the batch statistics of the forward pass (the mean depends on x); in
   * inference they are the moving statistics (constants).
   */
  public static NormGrads batchNormGrad(
      Tensor dy,
      Tensor x,
      Tensor scale,
      Tensor saveMean,
      Tensor saveVariance,
      boolean training,
      double epsilon) {
    return batchNormGrad(dy, x, scale, saveMean, saveVariance, training, epsilon, Sums.LOCAL, 1);
  }

  /**
   * BatchNormGrad on one block of a batch split over ranks (SyncBatchNormGrad): the per-channel
   * sums of the gradient and of its product with the normalised input, and the count, combined by
   * {@code sums}; {@code dscale}/{@code dbias} are then the whole batch's on every rank, times
   * {@code paramScale} (a script's SyncBatchNorm: 1/device_num, the mean over the group, as
   * MindSpore's SyncBNGrad split multiplies its AllReduce by; the data-parallel reducer then
   * averages it over the ranks again).
   */
  public static NormGrads batchNormGrad(
      Tensor dy,
      Tensor x,
      Tensor scale,
      Tensor saveMean,
      Tensor saveVariance,
      boolean training,
      double epsilon,
      Sums sums,
      double paramScale) {
    batchNormGradType(dy.type(), x.type(), scale.type(), saveMean.type(), saveVariance.type());
    int[] d = channels("BatchNormGrad", x.type(), scale.type());
    int c = d[1];
    Tensor dx = Tensor.zeros(x.dtype(), x.shape());
    double[] total = new double[2 * c + 1];
    for (int ch = 0; ch < c; ch++) {
      double mean = saveMean.getDouble(ch);
      double rstd = 1 / Math.sqrt(saveVariance.getDouble(ch) + epsilon);
      for (int i : channelIndices(d, ch)) {
        double g = dy.getDouble(i);
        total[ch] += g;
        total[c + ch] += g * (x.getDouble(i) - mean) * rstd;
      }
    }
    total[2 * c] = (double) d[0] * d[2];
    total = sums.acrossRanks(total);
    double m = total[2 * c];
    double[] dbias = java.util.Arrays.copyOfRange(total, 0, c);
    double[] dscale = java.util.Arrays.copyOfRange(total, c, 2 * c);
    for (int ch = 0; ch < c; ch++) {
      double mean = saveMean.getDouble(ch);
      double rstd = 1 / Math.sqrt(saveVariance.getDouble(ch) + epsilon);
      double sc = scale.getDouble(ch);
      int[] idx = channelIndices(d, ch);
      for (int i : idx) {
        double g = dy.getDouble(i);
        if (training) {
          double xhat = (x.getDouble(i) - mean) * rstd;
          dx.setDouble(i, sc * rstd * (g - (dbias[ch] + xhat * dscale[ch]) / m));
        } else {
          dx.setDouble(i, g * sc * rstd);
        }
      }
    }
    for (int ch = 0; ch < c; ch++) {
      dscale[ch] *= paramScale;
      dbias[ch] *= paramScale;
    }
    return new NormGrads(dx, vector(scale, dscale), vector(scale, dbias));
  }

  /** {@code LayerNorm(x, gamma, beta)}. */
  public static LayerNormResult layerNorm(
      Tensor x, Tensor gamma, Tensor beta, int beginNormAxis, int beginParamsAxis, double epsilon) {
    layerNormType(x.type(), gamma.type(), beta.type(), beginNormAxis, beginParamsAxis);
    int[] g = layerGeometry("LayerNorm", x.type(), gamma.type(), beginNormAxis, beginParamsAxis);
    int rows = g[0];
    int len = g[1];
    Shape stats = statsShape(x.shape(), g[2]);
    Tensor y = Tensor.zeros(x.dtype(), x.shape());
    Tensor mean = Tensor.zeros(gamma.dtype(), stats);
    Tensor rstd = Tensor.zeros(gamma.dtype(), stats);
    int params = gamma.size();
    for (int r = 0; r < rows; r++) {
      double s = 0;
      for (int k = 0; k < len; k++) {
        s += x.getDouble(r * len + k);
      }
      double mu = len == 0 ? 0 : s / len;
      double q = 0;
      for (int k = 0; k < len; k++) {
        double v = x.getDouble(r * len + k) - mu;
        q += v * v;
      }
      double rs = 1 / Math.sqrt((len == 0 ? 0 : q / len) + epsilon);
      mean.setDouble(r, mu);
      rstd.setDouble(r, rs);
      for (int k = 0; k < len; k++) {
        int i = r * len + k;
        int p = i % params;
        y.setDouble(i, (x.getDouble(i) - mu) * rs * gamma.getDouble(p) + beta.getDouble(p));
      }
    }
    return new LayerNormResult(y, mean, rstd);
  }

  /** {@code LayerNormGrad(x, dy, rstd, mean, gamma)}: gradients for x, gamma and beta. */
  public static NormGrads layerNormGrad(
      Tensor x,
      Tensor dy,
      Tensor mean,
      Tensor rstd,
      Tensor gamma,
      int beginNormAxis,
      int beginParamsAxis) {
    layerNormGradType(x.type(), dy.type(), gamma.type(), beginNormAxis, beginParamsAxis);
    int[] g =
        layerGeometry("LayerNormGrad", x.type(), gamma.type(), beginNormAxis, beginParamsAxis);
    int rows = g[0];
    int len = g[1];
    int params = gamma.size();
    double[] dgamma = new double[params];
    double[] dbeta = new double[params];
    Tensor dx = Tensor.zeros(x.dtype(), x.shape());
    double[] xhat = new double[len];
    double[] gx = new double[len];
    for (int r = 0; r < rows; r++) {
      double mu = mean.getDouble(r);
      double rs = rstd.getDouble(r);
      double meanG = 0;
      double meanGx = 0;
      for (int k = 0; k < len; k++) {
        int i = r * len + k;
        int p = i % params;
        double d = dy.getDouble(i);
        xhat[k] = (x.getDouble(i) - mu) * rs;
        gx[k] = d * gamma.getDouble(p);
        dgamma[p] += d * xhat[k];
        dbeta[p] += d;
        meanG += gx[k];
        meanGx += gx[k] * xhat[k];
      }
      meanG /= Math.max(len, 1);
      meanGx /= Math.max(len, 1);
      for (int k = 0; k < len; k++) {
        dx.setDouble(r * len + k, rs * (gx[k] - meanG - xhat[k] * meanGx));
      }
    }
    return new NormGrads(dx, vector(gamma, dgamma), vector(gamma, dbeta));
  }

  /**
   * The types of BatchNorm's outputs (y; batch mean and variance in the scale's type), with its
   * errors; reads no values.
   */
  public static List<AbstractTensor> batchNormType(
      AbstractTensor x,
      AbstractTensor scale,
      AbstractTensor bias,
      AbstractTensor movingMean,
      AbstractTensor movingVariance) {
    channels("BatchNorm", x, scale, bias, movingMean, movingVariance);
    return List.of(x, scale, scale);
  }

  /** The types of BatchNormGrad's outputs (dx, dscale, dbias), with its errors. */
  public static List<AbstractTensor> batchNormGradType(
      AbstractTensor dy,
      AbstractTensor x,
      AbstractTensor scale,
      AbstractTensor saveMean,
      AbstractTensor saveVariance) {
    channels("BatchNormGrad", x, scale, scale, saveMean, saveVariance);
    KernelSupport.requireShape("BatchNormGrad", "dy", dy.shape(), x.shape());
    return List.of(x, scale, scale);
  }

  /**
   * The types of LayerNorm's outputs (y; mean and rstd in gamma's type, the normalised dimensions
   * kept as 1), with its errors; reads no values.
   */
  public static List<AbstractTensor> layerNormType(
      AbstractTensor x,
      AbstractTensor gamma,
      AbstractTensor beta,
      int beginNormAxis,
      int beginParamsAxis) {
    int[] g = layerGeometry("LayerNorm", x, gamma, beginNormAxis, beginParamsAxis);
    KernelSupport.requireShape("LayerNorm", "beta", beta.shape(), gamma.shape());
    AbstractTensor stats = gamma.withShape(statsShape(x.shape(), g[2]));
    return List.of(x, stats, stats);
  }

  /** The types of LayerNormGrad's outputs (dx, dgamma, dbeta), with its errors. */
  public static List<AbstractTensor> layerNormGradType(
      AbstractTensor x,
      AbstractTensor dy,
      AbstractTensor gamma,
      int beginNormAxis,
      int beginParamsAxis) {
    layerGeometry("LayerNormGrad", x, gamma, beginNormAxis, beginParamsAxis);
    KernelSupport.requireShape("LayerNormGrad", "dy", dy.shape(), x.shape());
    return List.of(x, gamma, gamma);
  }

  /** {@code [N, C, inner]} after checking that every per-channel tensor has C elements. */
  private static int[] channels(String op, AbstractTensor x, AbstractTensor... perChannel) {
    KernelSupport.requireFloat(op, "x", x);
    int rank = x.shape().rank();
    if (rank < 2 || rank > 4) {
      throw MsException.valueError(
          "For '" + op + "', the dimension of 'x' must be 2, 3 or 4, but got " + rank + ".");
    }
    int[] dims = x.shape().toArray();
    for (AbstractTensor t : perChannel) {
      if (t.shape().rank() != 1 || t.shape().dim(0) != dims[1]) {
        throw MsException.valueError(
            "For '"
                + op
                + "', 'scale', 'bias', 'mean' and 'variance' must have shape ["
                + dims[1]
                + "], but got "
                + t.shape()
                + ".");
      }
    }
    return new int[] {dims[0], dims[1], KernelSupport.product(dims, 2, rank)};
  }

  /** Flat indices of channel {@code ch} in an {@code [N, C, inner]} layout. */
  private static int[] channelIndices(int[] d, int ch) {
    int[] idx = new int[d[0] * d[2]];
    int k = 0;
    for (int b = 0; b < d[0]; b++) {
      int base = (b * d[1] + ch) * d[2];
      for (int j = 0; j < d[2]; j++) {
        idx[k++] = base + j;
      }
    }
    return idx;
  }

  /** {@code [rows, len, normAxis]} after checking the axes and gamma's shape. */
  private static int[] layerGeometry(
      String op, AbstractTensor x, AbstractTensor gamma, int beginNormAxis, int beginParamsAxis) {
    KernelSupport.requireFloat(op, "x", x);
    int rank = x.shape().rank();
    int na = KernelSupport.axis(op, "begin_norm_axis", beginNormAxis, rank);
    int pa = KernelSupport.axis(op, "begin_params_axis", beginParamsAxis, rank);
    int[] dims = x.shape().toArray();
    List<Integer> want = new ArrayList<>(x.shape().dims().subList(pa, rank));
    KernelSupport.requireShape(op, "gamma", gamma.shape(), new Shape(want));
    // gamma[i % params] addresses the trailing dims[pa:] coordinates of flat index i, whichever
    // side of begin_norm_axis begin_params_axis falls.
    return new int[] {
      KernelSupport.product(dims, 0, na), KernelSupport.product(dims, na, rank), na
    };
  }

  private static Shape statsShape(Shape x, int normAxis) {
    List<Integer> dims = new ArrayList<>(x.dims());
    for (int a = normAxis; a < dims.size(); a++) {
      dims.set(a, 1);
    }
    return new Shape(dims);
  }

  /** {@code v} in the type and shape of {@code like} (which has {@code v.length} elements). */
  private static Tensor vector(Tensor like, double[] v) {
    Tensor t = Tensor.zeros(like.dtype(), like.shape());
    for (int i = 0; i < v.length; i++) {
      t.setDouble(i, v[i]);
    }
    return t;
  }
}
