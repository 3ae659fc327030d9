package io.jxds.api.model;

/**
 * The endpoint-picking policy a Cluster asks for, with its settings. Each kind is an immutable
 * record whose constructor checks its settings, so a policy in the model is always usable.
 *
 * <ul>
 *   <li>{@link RoundRobin} and {@link LeastRequest} pick inside a locality; localities are always
 *       weighted first (gRFC A52's {@code wrr_locality}).
 *   <li>{@link RingHash} and {@link Maglev} hash each request onto one ring (or table) per
 *       priority, over all its endpoints, weighted by locality weight × endpoint weight (gRFC A42).
 * </ul>
 */
public sealed interface LbPolicy
    permits LbPolicy.RoundRobin, LbPolicy.LeastRequest, LbPolicy.RingHash, LbPolicy.Maglev {
  /** Round robin: the default of {@code lb_policy}. */
  LbPolicy ROUND_ROBIN = new RoundRobin();

  /** Weighted round robin over a locality's endpoints by their {@code load_balancing_weight}. */
  record RoundRobin() implements LbPolicy {}

  /**
   * Least request (gRFC A48; envoy's {@code least_request_lb_config}): inside a locality, draw
   * {@code choiceCount} READY endpoints at random and take the one with the fewest outstanding
   * RPCs. Where endpoint weights differ, envoy's weighted rule applies: an endpoint's effective
   * weight is {@code weight / (active + 1)^activeRequestBias}.
   *
   * @param choiceCount how many endpoints each pick draws, in [{@value #MIN_CHOICE_COUNT},
   *     {@value #MAX_CHOICE_COUNT}] (default {@value #DEFAULT_CHOICE_COUNT})
   * @param activeRequestBias how strongly outstanding RPCs lower an endpoint's weight when
   *     weights differ, finite and {@code >= 0} (default 1.0; 0 is plain weighted random)
   */
  record LeastRequest(int choiceCount, double activeRequestBias) implements LbPolicy {
    /** {@code choice_count}'s default. */
    public static final int DEFAULT_CHOICE_COUNT = 2;
    /** The smallest {@code choice_count} (gRFC A48). */
    public static final int MIN_CHOICE_COUNT = 2;
    /** The largest {@code choice_count} (gRFC A48). */
    public static final int MAX_CHOICE_COUNT = 10;
    /** {@code active_request_bias}'s default. */
    public static final double DEFAULT_ACTIVE_REQUEST_BIAS = 1.0;

    /**
     * Checks the settings.
     *
     * @param choiceCount in [2, 10]
     * @param activeRequestBias finite, at least 0
     * @throws IllegalArgumentException if a setting is out of range
     */
    public LeastRequest {
      if (choiceCount < MIN_CHOICE_COUNT || choiceCount > MAX_CHOICE_COUNT) {
        throw new IllegalArgumentException("choiceCount must be in [" + MIN_CHOICE_COUNT + ", "
            + MAX_CHOICE_COUNT + "], got " + choiceCount);
      }
      if (!(activeRequestBias >= 0) || Double.isInfinite(activeRequestBias)) {
        throw new IllegalArgumentException("activeRequestBias must be finite and >= 0, got " + activeRequestBias);
      }
    }

    /**
     * Least request with the default settings.
     *
     * @return choice count 2, bias 1.0
     */
    public static LeastRequest defaults() {
      return new LeastRequest(DEFAULT_CHOICE_COUNT, DEFAULT_ACTIVE_REQUEST_BIAS);
    }
  }

  /**
   * Ring hash (gRFC A42; envoy's {@code ring_hash_lb_config}, hash function XX_HASH): one ring
   * per priority whose size lies in [{@code minRingSize}, {@code maxRingSize}], each endpoint
   * holding entries in proportion to locality weight × endpoint weight.
   *
   * @param minRingSize the fewest ring entries, in [1, {@value #MAX_RING_SIZE}] (default
   *     {@value #DEFAULT_MIN_RING_SIZE})
   * @param maxRingSize the most ring entries, in [{@code minRingSize}, {@value #MAX_RING_SIZE}]
   *     (default {@value #MAX_RING_SIZE})
   */
  record RingHash(long minRingSize, long maxRingSize) implements LbPolicy {
    /** {@code minimum_ring_size}'s default (envoy and gRFC A42). */
    public static final long DEFAULT_MIN_RING_SIZE = 1024;
    /** The largest ring, and {@code maximum_ring_size}'s default (envoy and gRFC A42): 8M. */
    public static final long MAX_RING_SIZE = 8 * 1024 * 1024;

    /**
     * Checks the sizes.
     *
     * @param minRingSize in [1, maxRingSize]
     * @param maxRingSize at most the cap
     * @throws IllegalArgumentException if a size is out of range or min exceeds max
     */
    public RingHash {
      if (minRingSize < 1 || minRingSize > MAX_RING_SIZE) {
        throw new IllegalArgumentException("minRingSize must be in [1, " + MAX_RING_SIZE + "], got " + minRingSize);
      }
      if (maxRingSize < minRingSize || maxRingSize > MAX_RING_SIZE) {
        throw new IllegalArgumentException("maxRingSize must be in [minRingSize " + minRingSize + ", "
            + MAX_RING_SIZE + "], got " + maxRingSize);
      }
    }

    /**
     * Ring hash with the default sizes.
     *
     * @return min 1024, max 8M
     */
    public static RingHash defaults() {
      return new RingHash(DEFAULT_MIN_RING_SIZE, MAX_RING_SIZE);
    }
  }

  /**
   * Maglev (envoy's {@code maglev_lb_config}): one lookup table per priority of {@code tableSize}
   * slots, filled by envoy's Maglev construction in proportion to locality weight × endpoint
   * weight.
   *
   * @param tableSize a prime in [2, {@value #MAX_TABLE_SIZE}] (default {@value #DEFAULT_TABLE_SIZE})
   */
  record Maglev(long tableSize) implements LbPolicy {
    /** {@code table_size}'s default (envoy). */
    public static final long DEFAULT_TABLE_SIZE = 65537;
    /** The largest table envoy accepts. */
    public static final long MAX_TABLE_SIZE = 5000011;

    /**
     * Checks the size.
     *
     * @param tableSize a prime
     * @throws IllegalArgumentException if the size is not a prime in range
     */
    public Maglev {
      if (tableSize < 2 || tableSize > MAX_TABLE_SIZE || !isPrime(tableSize)) {
        throw new IllegalArgumentException(
            "tableSize must be a prime in [2, " + MAX_TABLE_SIZE + "], got " + tableSize);
      }
    }

    /**
     * Maglev with the default table size.
     *
     * @return table size 65537
     */
    public static Maglev defaults() {
      return new Maglev(DEFAULT_TABLE_SIZE);
    }

    /**
     * Whether {@code n} is prime (trial division: table sizes are at most about 5 million).
     *
     * @param n the number to test
     * @return true for a prime
     */
    public static boolean isPrime(long n) {
      if (n < 2) {
        return false;
      }
      if (n % 2 == 0) {
        return n == 2;
      }
      for (long d = 3; d * d <= n; d += 2) {
        if (n % d == 0) {
          return false;
        }
      }
      return true;
    }
  }
}
