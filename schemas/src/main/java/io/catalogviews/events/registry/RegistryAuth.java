package io.catalogviews.events.registry;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * How the client authenticates to the schema registry: not at all, HTTP basic (Confluent's {@code
 * basic.auth.user.info}, {@code user:password}) or a bearer token (Confluent's {@code bearer.auth.token}).
 * {@link #toString()} never shows the secret.
 */
public sealed interface RegistryAuth {

  /** The {@code Authorization} header value, if any. */
  Optional<String> authorizationHeader();

  /** No {@code Authorization} header. */
  RegistryAuth NONE = new None();

  /** No authentication. */
  record None() implements RegistryAuth {
    @Override
    public Optional<String> authorizationHeader() {
      return Optional.empty();
    }
  }

  /**
   * HTTP basic authentication.
   *
   * @param userInfo {@code user:password}, as in Confluent's {@code basic.auth.user.info}
   */
  record Basic(String userInfo) implements RegistryAuth {
    public Basic {
      Objects.requireNonNull(userInfo, "userInfo");
      if (userInfo.indexOf(':') < 1) {
        throw new IllegalArgumentException("basic auth user info must look like user:password");
      }
    }

    @Override
    public Optional<String> authorizationHeader() {
      return Optional.of("Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
      return "Basic[user=" + userInfo.substring(0, userInfo.indexOf(':')) + ", password=***]";
    }
  }

  /**
   * A static bearer token.
   *
   * @param token the token, sent as {@code Authorization: Bearer <token>}
   */
  record Bearer(String token) implements RegistryAuth {
    public Bearer {
      Objects.requireNonNull(token, "token");
      if (token.isBlank()) {
        throw new IllegalArgumentException("the bearer token is blank");
      }
    }

    @Override
    public Optional<String> authorizationHeader() {
      return Optional.of("Bearer " + token);
    }

    @Override
    public String toString() {
      return "Bearer[***]";
    }
  }
}
