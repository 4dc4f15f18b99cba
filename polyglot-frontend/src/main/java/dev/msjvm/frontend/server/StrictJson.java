package dev.msjvm.frontend.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Request bodies are read exactly as typed: no number where a string is expected ({@code "script":
 * 5}), no fraction where an integer is ({@code "workers": 2.5}), no string for a number, no unknown
 * fields, no trailing tokens. A mismatch is a 400 naming the field ({@link Errors}).
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

  @Override
  @SuppressWarnings("deprecation") // ALLOW_COERCION_OF_SCALARS still governs the scalar cases
  public void customize(ObjectMapper m) {
    m.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
    m.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    m.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    m.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    m.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    m.disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);
    for (CoercionInputShape shape :
        new CoercionInputShape[] {
          CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean
        }) {
      m.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
    }
    for (LogicalType number : new LogicalType[] {LogicalType.Integer, LogicalType.Float}) {
      m.coercionConfigFor(number)
          .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }
    m.coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
  }
}
