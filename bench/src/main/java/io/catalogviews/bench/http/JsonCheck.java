package io.catalogviews.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Iterator;
import java.util.Map;

/**
 * Compares an answer with the expected JSON: every field of an expected object must be in the answer with an
 * equal value (fields the contract adds later are allowed), arrays element by element in order, numbers by
 * value (an int and a long of the same value are equal; floating values exactly, so {@code 4.300000190734863}
 * where the contract wants {@code 4.3} is a wrong answer).
 */
public final class JsonCheck {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonCheck() {
    }

    /** Null when {@code actual} holds {@code expected}, otherwise where and how they differ. */
    public static String difference(JsonNode expected, JsonNode actual) {
        return difference("$", expected, actual);
    }

    private static String difference(String path, JsonNode expected, JsonNode actual) {
        if (actual == null || actual.isMissingNode()) {
            return path + " is missing";
        }
        if (expected.isObject()) {
            if (!actual.isObject()) {
                return path + " is not an object";
            }
            Iterator<Map.Entry<String, JsonNode>> fields = expected.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                String d = difference(path + "." + f.getKey(), f.getValue(), actual.get(f.getKey()));
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (expected.isArray()) {
            if (!actual.isArray()) {
                return path + " is not an array";
            }
            for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
                String d = difference(path + "[" + i + "]", expected.get(i), actual.get(i));
                if (d != null) {
                    return d;
                }
            }
            if (expected.size() != actual.size()) {
                return path + " has " + actual.size() + " elements, expected " + expected.size();
            }
            return null;
        }
        if (expected.isNumber() && actual.isNumber()) {
            if (expected.isIntegralNumber() && actual.isIntegralNumber()
                    ? expected.bigIntegerValue().equals(actual.bigIntegerValue())
                    : expected.doubleValue() == actual.doubleValue()) {
                return null;
            }
            return path + " is " + actual + ", expected " + expected;
        }
        return expected.equals(actual) ? null : path + " is " + abbreviate(actual.toString()) + ", expected "
                + abbreviate(expected.toString());
    }

    static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }
}
