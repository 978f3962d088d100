package io.catalogviews.cli;

import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import picocli.CommandLine;

import java.util.Map;

/**
 * Reads the product view's share of the RocksDB memory bound with the stores' own rule
 * ({@link BoundedMemoryRocksDbConfig#productViewShare}), refusing in the flag's terms instead of the Streams key's.
 */
final class CacheShareConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        try {
            return BoundedMemoryRocksDbConfig.productViewShare(
                    Map.of(BoundedMemoryRocksDbConfig.PRODUCT_VIEW_CACHE_SHARE_CONFIG, value));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a number from 0 to "
                    + BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_CACHE_SHARE);
        }
    }
}
