package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.job.Session;
import java.util.Objects;

/**
 * The narrow Java API that the Python package {@code mindspore} calls: one instance per
 * interpreter.
 *
 * <p>Python reaches it as {@code polyglot.import_value("msjvm_host")} from the single private
 * module {@code mindspore/_host.py}; only plain data and engine objects cross. Example: the shim's
 * {@code set_auto_parallel_context(device_num=8)} checks the argument in Python, then calls {@code
 * host.session().autoParallelContext().set("device_num", 8)}.
 */
public final class Host {
  private final Session session;
  private final DeviceProbe devices;

  public Host(Session session, DeviceProbe devices) {
    this.session = Objects.requireNonNull(session);
    this.devices = Objects.requireNonNull(devices);
  }

  public Session session() {
    return session;
  }

  /** Whether hardware for a MindSpore {@code device_target} ("CPU", "GPU", "Ascend") is present. */
  public boolean deviceAvailable(String deviceTarget) {
    return devices.available(deviceTarget);
  }

  /** If {@code t} is an engine error, the Python exception class name it maps to; else null. */
  public String pythonTypeOf(Object t) {
    return t instanceof MsException e ? e.pythonType() : null;
  }

  /** The message of a Java throwable, for re-raising it in Python. */
  public String messageOf(Object t) {
    if (t instanceof Throwable e) {
      return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    }
    return String.valueOf(t);
  }
}
