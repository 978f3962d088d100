package io.catalogviews.cli;

import io.catalogviews.views.streams.BoundedMemoryRocksDbConfig;
import picocli.CommandLine;

/** Reads the product view's share of the RocksDB memory bound: a decimal number from 0 to the stores' maximum. */
final class CacheShareConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        try {
            double share = Double.parseDouble(value.trim());
            // The negated test refuses NaN too.
            if (share >= 0 && share <= BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_CACHE_SHARE) {
                return share + 0.0; // -0.0 (as "-1e-400" reads) becomes 0
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not a number from 0 to "
                + BoundedMemoryRocksDbConfig.MAX_PRODUCT_VIEW_CACHE_SHARE);
    }
}
