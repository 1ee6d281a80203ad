// A tiny oracle for chemref's Java-compatibility helpers (tests/test_scoring_brat_java.py).
// Reads tab-separated lines on stdin and prints what the JVM computes for each:
//   order <TAB> k1 k2 ...   -> the iteration order of a java.util.HashMap after put(k1), put(k2), ...
//   format <TAB> x          -> String.format("%1.4f", x)
//   compare <TAB> a <TAB> b -> the sign of a.compareTo(b)
//   sim <TAB> t <TAB> a <TAB> b -> BRATEval's approximate similarity of a and b for threshold t
//                                 (the banded edit distance as SCORING.md section 2 describes it)
//   split <TAB> sep <TAB> s  -> s.trim() and s.split(sep) ("|"-joined, with the part count)
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

public class JavaOracle {
    static String unescape(String s) {
        return s.replace("\\t", "\t").replace("\\s", " ");
    }

    static int banded(String x, String y, int allowed) {
        int lb = Math.min(y.length() - x.length(), 0);
        int ub = Math.max(y.length() - x.length(), 0);
        int margin = allowed - (ub - lb);
        if (margin < 0) return allowed + 1;
        int[] d = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) d[j] = j;
        for (int i = 1; i <= x.length(); i++) {
            int j = Math.max(1, lb + i - margin);
            int subst = d[j - 1];
            d[j - 1] += 1;
            for (; j <= Math.min(y.length(), ub + i + margin); j++) {
                int cost = subst + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1);
                int next = Math.min(cost, Math.min(d[j] + 1, d[j - 1] + 1));
                subst = d[j];
                d[j] = next;
            }
        }
        return d[y.length()];
    }

    static double similarity(String a, String b, double t) {
        int l = Math.max(a.length(), b.length());
        int allowed = (int) Math.floor((1.0 - t) * (double) l);
        int dist = banded(a, b, allowed);
        if (dist <= allowed) return 1.0 - ((double) dist) / ((double) l);
        return 0.0;
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(new Locale("en", "US"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("order")) {
                Map<String, Integer> map = new HashMap<>();
                int i = 0;
                for (String k : f[1].split(" ")) map.put(k, i++);
                out.append(String.join(" ", map.keySet()));
            } else if (f[0].equals("format")) {
                out.append(String.format("%1.4f", Double.parseDouble(f[1])));
            } else if (f[0].equals("compare")) {
                out.append(Integer.signum(f[1].compareTo(f[2])));
            } else if (f[0].equals("sim")) {
                out.append(Double.toString(similarity(f[2], f[3], Double.parseDouble(f[1]))));
            } else if (f[0].equals("split")) {
                String s = unescape(f[2]);
                String[] parts = s.split(unescape(f[1]));
                out.append(s.trim().length()).append('#').append(parts.length).append('#')
                   .append(String.join("|", parts));
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
