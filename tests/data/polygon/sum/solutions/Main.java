import java.util.*;
public class Main {
    public static void main(String[] a) {
        Scanner s = new Scanner(System.in);
        int n = s.nextInt(); long t = 0;
        for (int i = 0; i < n; i++) t += s.nextLong();
        System.out.println(t);
    }
}
