// epubcheck over several books in one Java process (tests/stories/test_epub.py).
//
// Arguments: pairs of a book and the JSON report to write for it. Each book is checked by a
// fresh EpubChecker, as `java -jar epubcheck.jar BOOK --json REPORT` would check it; its exit
// code is printed as "code BOOK CODE". Starting Java and loading epubcheck's schemas is most
// of a short run's CPU time: once for every book instead of once per book.
import com.adobe.epubcheck.tool.EpubChecker;

public class EpubcheckMany {
    public static void main(String[] args) {
        if (args.length == 0 || args.length % 2 != 0) {
            System.err.println("usage: EpubcheckMany BOOK REPORT [BOOK REPORT ...]");
            System.exit(2);
        }
        for (int i = 0; i < args.length; i += 2) {
            int code = new EpubChecker().run(new String[] {args[i], "--json", args[i + 1]});
            System.out.println("code " + args[i] + " " + code);
        }
        System.exit(0);
    }
}
