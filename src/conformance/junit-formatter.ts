/**
 * cucumber's JUnit formatter (@cucumber/junit-xml-formatter), with one repair: its XML builder
 * (xmlbuilder) escapes only the FIRST `]]>` of a CDATA section, so a failure message quoting a
 * bank's answer with two of them could close the section and add elements of the bank's choosing
 * (a forged `<testcase>` that "passes"). Here every occurrence is split across two sections, as
 * XML requires. Loaded by the runner as a formatter plugin (compiled, like the ordering plugin).
 */
import { JUnitXmlPrinter } from '@cucumber/junit-xml-formatter';
import xmlbuilder from 'xmlbuilder';

/** CDATA text that cannot close its section early: every `]]>` split across two sections. */
export function cdataSafe(text: string): string {
  return String(text).split(']]>').join(']]]]><![CDATA[>');
}

interface Stringifier { assertLegalChar(text: string): string }

const plugin = {
  type: 'formatter' as const,
  formatter({ options, on, write }: { options: { suiteName?: string }; on: (type: 'message', handler: (message: unknown) => void) => void; write: (content: string) => void }) {
    const printer = new JUnitXmlPrinter(options as never, write);
    // The printer's own document, rebuilt with the same options and a CDATA stringifier that
    // handles every `]]>` (xmlbuilder calls it with the stringifier as `this`).
    (printer as unknown as { builder: unknown }).builder = xmlbuilder
      .create('testsuite', {
        invalidCharReplacement: '',
        stringify: { cdata(this: Stringifier, value: string) { return this.assertLegalChar(cdataSafe(value)); } },
      } as never)
      .att('name', options.suiteName || 'Cucumber');
    on('message', (message) => printer.update(message as never));
  },
  optionsKey: 'junit',
};

export default plugin;
