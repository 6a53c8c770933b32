package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * A token with a character no header value may hold (a line break or a control character pasted
 * into the middle of it): the JDK refuses the header with a message quoting it, which the CLI
 * printed as its "unexpected error". The CLI names the setting instead and never prints the token.
 */
class TokenHeaderTest {
  @Test
  void aTokenWithAControlCharacterFailsWithALineThatDoesNotQuoteIt() {
    for (String token :
        new String[] {
          "olm_SECRETPART\nrest", "olm_SECRETPART\u0000rest", "olm_SECRETPART\u007frest"
        }) {
      Api api = new Api(new CliConfig(URI.create("http://127.0.0.1:9"), token));
      assertThatThrownBy(() -> api.get("/whoami"))
          .isInstanceOf(CliException.class)
          .hasMessageNotContaining("SECRETPART")
          .hasMessageContaining("OLMSTEAD_TOKEN");
    }
  }
}
